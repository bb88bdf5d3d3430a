package io.criresmgr.cache;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an external adjustment (the {@code Adjustment} custom resource, docs/adjustments.md) changes
 * for a container: its name, and each override it sets. Overrides win over the pod's own requests,
 * annotations and the policy's classes.
 *
 * @param name the Adjustment's name; empty for {@link #NONE}
 * @param resources the requests and limits to use instead of the container's own, if any
 * @param rdtClass the RDT class to use; empty: no override
 * @param blockIoClass the block I/O class to use; empty: no override
 * @param toptierLimitBytes the top-tier memory limit, if set
 */
public record Adjustment(
    String name,
    Optional<ResourceOverride> resources,
    String rdtClass,
    String blockIoClass,
    OptionalLong toptierLimitBytes) {
  /** No adjustment. */
  public static final Adjustment NONE =
      new Adjustment("", Optional.empty(), "", "", OptionalLong.empty());

  /** Checks for nulls and that only a named adjustment overrides anything. */
  public Adjustment {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(resources, "resources");
    Objects.requireNonNull(rdtClass, "rdtClass");
    Objects.requireNonNull(blockIoClass, "blockIoClass");
    Objects.requireNonNull(toptierLimitBytes, "toptierLimitBytes");
    if (toptierLimitBytes.isPresent() && toptierLimitBytes.getAsLong() < 0) {
      throw new IllegalArgumentException(
          "toptierLimit: " + toptierLimitBytes.getAsLong() + " is negative");
    }
    if (name.isEmpty()
        && (resources.isPresent()
            || !rdtClass.isEmpty()
            || !blockIoClass.isEmpty()
            || toptierLimitBytes.isPresent())) {
      throw new IllegalArgumentException("an adjustment that overrides anything needs a name");
    }
  }

  /** Whether this is {@link #NONE}. */
  public boolean isNone() {
    return name.isEmpty();
  }

  /** {@code original} with the resource override applied. */
  public Resources applyTo(Resources original) {
    return resources.map(r -> r.applyTo(original)).orElse(original);
  }
}
