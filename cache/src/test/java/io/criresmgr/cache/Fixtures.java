package io.criresmgr.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Pods, containers and snapshots with every field set, for the cache tests. */
final class Fixtures {
  private Fixtures() {}

  static Pod pod(String id, String uid) {
    return new Pod(
        id,
        uid,
        "pod-" + uid,
        "default",
        Map.of("app", "web", "io.kubernetes.pod.uid", uid),
        Map.of("cpu.cri-resource-manager.intel.com/container.app", "isolated"),
        "/kubepods/burstable/pod" + uid,
        QosClass.BURSTABLE,
        new PodResources(
            Map.of("init", new Resources(100, 200, 1 << 20, 2 << 20)),
            Map.of("app", new Resources(500, 1000, 64 << 20, 128 << 20))),
        true);
  }

  static Container container(String podUid, String name, String id, long seq) {
    return Container.builder()
        .cacheId(Container.cacheId(podUid, name))
        .id(id)
        .podId("sandbox-" + podUid)
        .name(name)
        .namespace("default")
        .labels(Map.of("io.kubernetes.container.name", name))
        .annotations(Map.of("io.kubernetes.container.restartCount", "0"))
        .image("docker.io/library/busybox:1.36")
        .state(ContainerState.RUNNING)
        .requested(
            new LinuxResources(
                100000, 50000, 512, 128 << 20, "0-7", "0", Map.of("memory.high", "max")))
        .resources(new Resources(500, 500, 0, 128 << 20))
        .qosClass(QosClass.BURSTABLE)
        .seq(seq)
        .build();
  }

  static Assignment fullAssignment() {
    return new Assignment(
        CpuSet.parse("2-3,6"),
        CpuSet.of(0),
        2048,
        -1,
        100000,
        256 << 20,
        Map.of("memory.swap.max", "0"),
        "gold",
        "slowreads");
  }

  /** A snapshot with every field of every record set, including pending markers. */
  static CacheSnapshot fullSnapshot() {
    Pod pod = pod("sandbox-u1", "u1");
    Container app =
        container("u1", "app", "c1", 7).withAssignment(fullAssignment(), Set.of("cri", "rdt"));
    Container init = container("u1", "init", "", 3).withState(ContainerState.EXITED);
    Container initFlagged =
        init.toBuilder().initContainer(true).qosClass(QosClass.GUARANTEED).build();
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    data.putObject("allocations").put("u1:app", "2-3,6");
    data.putArray("order").add(1).add(2.5).add(true).addNull();
    Map<String, JsonNode> policyData =
        Map.of("test", data, "other", JsonNodeFactory.instance.textNode("x"));
    return new CacheSnapshot(
        CacheSnapshot.VERSION,
        Map.of(pod.id(), pod, "sandbox-u2", pod("sandbox-u2", "u2").withReady(false)),
        Map.of(app.cacheId(), app, initFlagged.cacheId(), initFlagged),
        8,
        "test",
        policyData,
        Optional.of("policy:\n  Active: test\n"));
  }

  /** {@code s} with {@code c} put in its containers (replacing one of the same cache id). */
  static CacheSnapshot withContainer(CacheSnapshot s, Container c) {
    Map<String, Container> containers = new HashMap<>(s.containers());
    containers.put(c.cacheId(), c);
    return new CacheSnapshot(
        s.version(),
        s.pods(),
        containers,
        s.nextSeq(),
        s.activePolicy(),
        s.policyData(),
        s.agentConfig(),
        s.adjustments());
  }
}
