package io.criresmgr.proxy.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The crash test's invariants over the runtime (the truth) and the daemon's cache file (format in
 * {@code docs/cache-format.md}), checked once the daemon is quiet:
 *
 * <ul>
 *   <li>CPUs: every created or running container has a cpuset within the allowed CPUs; one that
 *       wants an exclusive CPU has exactly one, no CPU is held by two exclusive containers, and no
 *       shared container's cpuset contains an exclusive CPU; the runtime's cpuset of every
 *       container equals the assignment in the cache (no stale cpuset);
 *   <li>cache = runtime: every created or running container is cached with its id and state; every
 *       cached container exists in the runtime in the cached state, none is half-created, stale or
 *       owes an update; the cached pods are the runtime's, with the same readiness.
 * </ul>
 */
final class CrashInvariants {

  private final CpuSet allowed;
  private final String policy;
  private final List<String> violations = new ArrayList<>();

  private CrashInvariants(CpuSet allowed, String policy) {
    this.allowed = allowed;
    this.policy = policy;
  }

  /**
   * The violations of {@code world} (with the live containers' {@code statuses}) and the cache file
   * {@code cacheFile}, written by {@code policy} handing out {@code allowed}; empty if all hold.
   */
  static List<String> check(
      CpuSet allowed,
      String policy,
      CrashWorld world,
      Map<String, ContainerStatus> statuses,
      Path cacheFile) {
    CrashInvariants check = new CrashInvariants(allowed, policy);
    // A kill at any point leaves a file and journal that load: none was ever moved aside, which
    // the reconciled state below would not show (the daemon then starts from the runtime).
    check.nothingMovedAside(cacheFile.getParent());
    // The file with its journal replayed (docs/cache-format.md, "The journal").
    Optional<JsonNode> current = CacheFile.current(cacheFile.getParent());
    if (current.isEmpty()) {
      return List.of("cannot read the cache file " + cacheFile);
    }
    JsonNode cache = current.get();
    check.cpus(statuses, byRuntimeId(cache));
    check.containers(world, cache);
    check.pods(world, cache);
    return List.copyOf(check.violations);
  }

  private void nothingMovedAside(Path stateDir) {
    try (Stream<Path> files = Files.list(stateDir)) {
      List<String> aside =
          files
              .map(f -> f.getFileName().toString())
              .filter(n -> n.contains(".corrupt-"))
              .sorted()
              .toList();
      if (!aside.isEmpty()) {
        violations.add("a restart moved the cache aside: " + aside);
      }
    } catch (IOException e) {
      violations.add("cannot list " + stateDir + ": " + e);
    }
  }

  private void cpus(Map<String, ContainerStatus> statuses, Map<String, JsonNode> cached) {
    Map<Integer, String> exclusiveOwner = new HashMap<>();
    Map<String, CpuSet> shared = new HashMap<>();
    for (ContainerStatus s : statuses.values()) {
      String who = who(s);
      LinuxContainerResources linux = s.getResources().getLinux();
      CpuSet cpus = CpuSet.parse(linux.getCpusetCpus());
      if (cpus.isEmpty() || !allowed.containsAll(cpus)) {
        violations.add(
            who + " has cpuset \"" + linux.getCpusetCpus() + "\", not within " + allowed);
      }
      if (wantsExclusive(linux)) {
        if (cpus.size() != 1) {
          violations.add(who + " wants one exclusive CPU but has " + cpus);
        }
        cpus.stream()
            .forEach(
                cpu -> {
                  String other = exclusiveOwner.put(cpu, who);
                  if (other != null) {
                    violations.add("CPU " + cpu + " is exclusive to both " + other + " and " + who);
                  }
                });
      } else {
        shared.put(who, cpus);
      }
      JsonNode entry = cached.get(s.getId());
      String assigned = entry == null ? "" : entry.path("Assignment").path("CPUs").asText();
      if (entry != null && !CpuSet.parse(assigned).equals(cpus)) {
        violations.add(who + " runs on " + cpus + " but the cache assigns it \"" + assigned + "\"");
      }
    }
    shared.forEach(
        (who, cpus) ->
            cpus.stream()
                .filter(exclusiveOwner::containsKey)
                .forEach(
                    cpu ->
                        violations.add(
                            "shared "
                                + who
                                + " runs on "
                                + cpus
                                + " including CPU "
                                + cpu
                                + " of "
                                + exclusiveOwner.get(cpu))));
  }

  /** One whole CPU: shares 1024 and a quota of one period (see {@link CrashRequests}). */
  private static boolean wantsExclusive(LinuxContainerResources linux) {
    return linux.getCpuShares() == 1024
        && linux.getCpuQuota() > 0
        && linux.getCpuQuota() == linux.getCpuPeriod();
  }

  private void containers(CrashWorld world, JsonNode cache) {
    if (!policy.equals(cache.path("PolicyName").asText())) {
      violations.add("the cache records policy \"" + cache.path("PolicyName").asText() + "\"");
    }
    Map<String, JsonNode> cached = byRuntimeId(cache);
    Map<String, Container> runtime = new HashMap<>();
    world.containers().forEach(c -> runtime.put(c.getId(), c));
    for (Container c : world.holding()) {
      JsonNode entry = cached.get(c.getId());
      if (entry == null) {
        violations.add(who(c) + " is " + state(c) + " in the runtime but not in the cache");
      }
    }
    Set<String> holding = new HashSet<>();
    world.holding().forEach(c -> holding.add(c.getId()));
    cache
        .path("Containers")
        .properties()
        .forEach(e -> cachedContainer(e.getKey(), e.getValue(), runtime, holding));
  }

  private void cachedContainer(
      String cacheId, JsonNode entry, Map<String, Container> runtime, Set<String> holding) {
    String state = entry.path("State").asText();
    String id = entry.path("ID").asText();
    Container c = runtime.get(id);
    if (!entry.path("Pending").isEmpty()) {
      violations.add("cached " + cacheId + " still owes updates to " + entry.path("Pending"));
    }
    if (c == null) {
      violations.add("cached " + cacheId + " (" + id + ", " + state + ") is not in the runtime");
    } else if (state.equals("EXITED") && !holding.contains(id)) {
      // It exited, or its pod was stopped: either way it holds nothing.
    } else if (!state.equals(state(c))) {
      violations.add("cached " + cacheId + " is " + state + " but " + state(c) + " in the runtime");
    }
  }

  private void pods(CrashWorld world, JsonNode cache) {
    Set<String> cachedPods = new HashSet<>();
    cache.path("Pods").properties().forEach(e -> cachedPods.add(e.getKey()));
    for (PodSandbox p : world.pods()) {
      JsonNode entry = cache.path("Pods").get(p.getId());
      boolean ready = p.getState() == PodSandboxState.SANDBOX_READY;
      if (entry == null) {
        violations.add("pod " + p.getMetadata().getName() + " is in the runtime but not cached");
      } else if (entry.path("Ready").asBoolean() != ready) {
        violations.add("pod " + p.getMetadata().getName() + " is cached with Ready != " + ready);
      }
      cachedPods.remove(p.getId());
    }
    cachedPods.forEach(id -> violations.add("cached pod " + id + " is not in the runtime"));
  }

  private static Map<String, JsonNode> byRuntimeId(JsonNode cache) {
    Map<String, JsonNode> byId = new HashMap<>();
    cache.path("Containers").forEach(c -> byId.put(c.path("ID").asText(), c));
    return byId;
  }

  /** The cache's name of a runtime container state. */
  private static String state(Container c) {
    return switch (c.getState()) {
      case CONTAINER_CREATED -> "CREATED";
      case CONTAINER_RUNNING -> "RUNNING";
      case CONTAINER_EXITED -> "EXITED";
      default -> c.getState().name();
    };
  }

  private static String who(Container c) {
    return c.getMetadata().getName() + " (" + c.getId() + ")";
  }

  private static String who(ContainerStatus s) {
    return s.getMetadata().getName() + " (" + s.getId() + ")";
  }
}
