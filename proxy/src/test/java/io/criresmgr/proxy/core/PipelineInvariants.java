package io.criresmgr.proxy.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.CpuSet;
import io.grpc.Channel;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline's invariants once it is quiet, checked from the runtime's listing and the cache file
 * alone (so that it works for a daemon in another process too):
 *
 * <ul>
 *   <li>no CPU is in the cpuset of two created or running containers, neither in the runtime nor in
 *       the cache's assignments (meant for policies that hand out exclusive CPUs);
 *   <li>the cache's pods are the runtime's sandboxes, with the same readiness;
 *   <li>every created or running container of the runtime is cached with its id and state, its
 *       assigned CPUs (if any) are what the runtime applies, and nothing is pending;
 *   <li>every cached container that is not stale has an id and the runtime lists it in the same
 *       state. A container that exited in the runtime may be missing from the cache (a restart
 *       drops containers that exited while the daemon was down).
 * </ul>
 */
public final class PipelineInvariants {

  private PipelineInvariants() {}

  /**
   * Polls until every invariant holds, at most {@code timeout} (the cache file is saved
   * asynchronously).
   *
   * @throws AssertionError listing the violations still seen at the end
   */
  public static void awaitHold(Channel runtime, Path cacheFile, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> violations = violations(runtime, cacheFile);
    while (!violations.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "pipeline invariants violated:\n  "
                + String.join("\n  ", violations)
                + "\ncache file: "
                + read(cacheFile));
      }
      Thread.sleep(50);
      violations = violations(runtime, cacheFile);
    }
  }

  /** The invariants violated right now; empty if all hold. */
  public static List<String> violations(Channel runtime, Path cacheFile) {
    var stub = RuntimeServiceGrpc.newBlockingStub(runtime).withDeadlineAfter(10, TimeUnit.SECONDS);
    List<PodSandbox> pods =
        stub.listPodSandbox(ListPodSandboxRequest.getDefaultInstance()).getItemsList();
    List<Container> listed =
        stub.listContainers(ListContainersRequest.getDefaultInstance()).getContainersList();
    Map<String, String> cpusets = new HashMap<>();
    List<String> violations = new ArrayList<>();
    for (Container c : listed) {
      if (isLive(c.getState())) {
        try {
          cpusets.put(c.getId(), cpuset(runtime, c.getId()));
        } catch (StatusRuntimeException e) {
          violations.add("runtime: status of container " + c.getId() + ": " + e.getStatus());
        }
      }
    }
    JsonNode cache = read(cacheFile);
    checkRuntimeCpus(cpusets, violations);
    checkCacheCpus(cache, violations);
    checkPods(pods, cache, violations);
    checkRuntimeInCache(listed, cpusets, cache, violations);
    checkCacheInRuntime(listed, cache, violations);
    return violations;
  }

  private static String cpuset(Channel runtime, String id) {
    return RuntimeServiceGrpc.newBlockingStub(runtime)
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build())
        .getStatus()
        .getResources()
        .getLinux()
        .getCpusetCpus();
  }

  private static void checkRuntimeCpus(Map<String, String> cpusets, List<String> violations) {
    checkExclusive("runtime", cpusets, violations);
  }

  private static void checkCacheCpus(JsonNode cache, List<String> violations) {
    Map<String, String> assigned = new HashMap<>();
    for (JsonNode c : cache.path("Containers")) {
      String state = c.path("State").asText();
      if (state.equals("CREATING") || state.equals("CREATED") || state.equals("RUNNING")) {
        assigned.put(c.path("CacheID").asText(), c.path("Assignment").path("CPUs").asText());
      }
    }
    checkExclusive("cache", assigned, violations);
  }

  /** No CPU appears in two of {@code cpusets} (owner to kernel CPU list). */
  private static void checkExclusive(
      String where, Map<String, String> cpusets, List<String> violations) {
    Map<Integer, String> owner = new HashMap<>();
    for (String id : new TreeSet<>(cpusets.keySet())) {
      CpuSet cpus;
      try {
        cpus = CpuSet.parse(cpusets.get(id));
      } catch (IllegalArgumentException e) {
        violations.add(where + ": container " + id + " has a bad cpuset: " + e.getMessage());
        continue;
      }
      cpus.stream()
          .forEach(
              cpu -> {
                String other = owner.putIfAbsent(cpu, id);
                if (other != null) {
                  violations.add(
                      where + ": CPU " + cpu + " is assigned to both " + other + " and " + id);
                }
              });
    }
  }

  private static void checkPods(List<PodSandbox> pods, JsonNode cache, List<String> violations) {
    Map<String, PodSandbox> byId = new HashMap<>();
    pods.forEach(p -> byId.put(p.getId(), p));
    for (PodSandbox p : pods) {
      JsonNode cached = cache.path("Pods").path(p.getId());
      boolean ready = p.getState() == PodSandboxState.SANDBOX_READY;
      if (cached.isMissingNode()) {
        violations.add("pod " + p.getId() + " of the runtime is not cached");
      } else if (cached.path("Ready").asBoolean() != ready) {
        violations.add("pod " + p.getId() + ": runtime ready " + ready + ", cache " + cached);
      }
    }
    cache
        .path("Pods")
        .fieldNames()
        .forEachRemaining(
            id -> {
              if (!byId.containsKey(id)) {
                violations.add("cached pod " + id + " is not in the runtime");
              }
            });
  }

  private static void checkRuntimeInCache(
      List<Container> listed,
      Map<String, String> cpusets,
      JsonNode cache,
      List<String> violations) {
    Map<String, JsonNode> cached = cachedById(cache);
    for (Container c : listed) {
      if (!isLive(c.getState())) {
        continue;
      }
      JsonNode entry = cached.get(c.getId());
      if (entry == null) {
        violations.add("runtime container " + c.getId() + " (" + c.getState() + ") is not cached");
        continue;
      }
      String expected = cacheState(c.getState());
      if (!entry.path("State").asText().equals(expected)) {
        violations.add(
            "container " + c.getId() + ": runtime " + expected + ", cache " + entry.path("State"));
      }
      String assigned = entry.path("Assignment").path("CPUs").asText();
      String applied = cpusets.getOrDefault(c.getId(), "");
      if (!assigned.isEmpty() && !CpuSet.parse(assigned).equals(parseOrEmpty(applied))) {
        violations.add(
            "container " + c.getId() + ": assigned CPUs " + assigned + ", runtime has " + applied);
      }
      if (!entry.path("Pending").isEmpty()) {
        violations.add("container " + c.getId() + ": still pending " + entry.path("Pending"));
      }
    }
  }

  private static void checkCacheInRuntime(
      List<Container> listed, JsonNode cache, List<String> violations) {
    Map<String, Container> byId = new HashMap<>();
    listed.forEach(c -> byId.put(c.getId(), c));
    for (JsonNode entry : cache.path("Containers")) {
      String cacheId = entry.path("CacheID").asText();
      String state = entry.path("State").asText();
      String id = entry.path("ID").asText();
      if (state.equals("STALE")) {
        continue;
      }
      if (id.isEmpty()) {
        violations.add("cached container " + cacheId + " has no runtime id (" + state + ")");
        continue;
      }
      Container c = byId.get(id);
      if (c == null) {
        violations.add("cached container " + cacheId + " (" + id + ") is not in the runtime");
      } else if (!cacheState(c.getState()).equals(state)) {
        violations.add(
            "cached container " + cacheId + " is " + state + ", runtime " + c.getState());
      }
    }
  }

  private static Map<String, JsonNode> cachedById(JsonNode cache) {
    Map<String, JsonNode> byId = new HashMap<>();
    for (JsonNode entry : cache.path("Containers")) {
      byId.put(entry.path("ID").asText(), entry);
    }
    return byId;
  }

  private static CpuSet parseOrEmpty(String text) {
    try {
      return CpuSet.parse(text);
    } catch (IllegalArgumentException e) {
      return CpuSet.EMPTY;
    }
  }

  private static boolean isLive(ContainerState state) {
    return state == ContainerState.CONTAINER_CREATED || state == ContainerState.CONTAINER_RUNNING;
  }

  /** The cache's name of a runtime state. */
  private static String cacheState(ContainerState state) {
    return switch (state) {
      case CONTAINER_CREATED -> "CREATED";
      case CONTAINER_RUNNING -> "RUNNING";
      case CONTAINER_EXITED -> "EXITED";
      default -> "UNKNOWN";
    };
  }

  // The file with its journal replayed (docs/cache-format.md, "The journal").
  private static JsonNode read(Path cacheFile) {
    return CacheFile.current(cacheFile.getParent()).orElse(MissingNode.getInstance());
  }
}
