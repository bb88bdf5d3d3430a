package io.criresmgr.cache;

import java.util.Optional;

/**
 * The requests and limits an adjustment sets. Each resource it names (cpu, memory) replaces the
 * container's request and limit of that resource; a resource it does not name keeps the container's
 * values.
 *
 * @param cpu milli-CPU request and limit, if the adjustment names cpu
 * @param memory memory request and limit in bytes, if the adjustment names memory
 */
public record ResourceOverride(Optional<Amounts> cpu, Optional<Amounts> memory) {
  /** Checks for nulls; an override names at least one resource. */
  public ResourceOverride {
    java.util.Objects.requireNonNull(cpu, "cpu");
    java.util.Objects.requireNonNull(memory, "memory");
    if (cpu.isEmpty() && memory.isEmpty()) {
      throw new IllegalArgumentException("resources: names neither cpu nor memory");
    }
  }

  /** {@code original} with the named resources replaced. */
  public Resources applyTo(Resources original) {
    return new Resources(
        cpu.map(Amounts::request).orElse(original.cpuRequestMilli()),
        cpu.map(Amounts::limit).orElse(original.cpuLimitMilli()),
        memory.map(Amounts::request).orElse(original.memoryRequestBytes()),
        memory.map(Amounts::limit).orElse(original.memoryLimitBytes()));
  }

  /**
   * A request and a limit of one resource; 0 means "not set", as in {@link Resources}.
   *
   * @param request the request
   * @param limit the limit; 0 or at least the request
   */
  public record Amounts(long request, long limit) {
    /** Rejects negative amounts and a limit below the request. */
    public Amounts {
      if (request < 0 || limit < 0) {
        throw new IllegalArgumentException(
            "negative amount: request " + request + ", limit " + limit);
      }
      if (limit > 0 && limit < request) {
        throw new IllegalArgumentException(
            "the limit " + limit + " is below the request " + request);
      }
    }
  }
}
