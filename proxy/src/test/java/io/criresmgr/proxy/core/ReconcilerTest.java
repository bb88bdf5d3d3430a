package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ContainerResources;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.template.TemplatePolicyProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Start-up reconciliation on an in-memory cache with the template policy on CPUs 0-3. */
class ReconcilerTest {
  private static final Resources ONE_CPU = new Resources(1000, 1000, 0, 0);
  private final List<String> updates = new ArrayList<>();
  private final NodeCache cache = new NodeCache();

  private Section section(String policyName) {
    TemplatePolicyProvider provider = new TemplatePolicyProvider();
    PolicyContext context =
        new PolicyContext(Path.of("/"), CpuSet.range(0, 3), CpuSet.of(0), Map.of(), Map.of());
    ActivePolicy policy =
        new ActivePolicy(
            policyName,
            provider.create(context, provider.parseOptions(JsonNodeFactory.instance.objectNode())));
    Controller recorder =
        new Controller() {
          @Override
          public String name() {
            return "cri";
          }

          @Override
          public void postUpdate(Container c) {
            if (c.pending().contains("cri")) {
              updates.add(c.cacheId() + "=" + c.assignment().cpus());
            }
          }
        };
    ControllerSet controllers = new ControllerSet(List.of(recorder));
    controllers.configure(
        Map.of(),
        new io.criresmgr.controllers.ControllerContext(Path.of("/"), Path.of("/"), Map.of()));
    return new Section(cache, policy, controllers);
  }

  private static Pod pod(String id) {
    return new Pod(
        id,
        "uid-" + id,
        id,
        "default",
        Map.of(),
        Map.of(),
        "/kubepods/pod" + id,
        QosClass.GUARANTEED,
        PodResources.NONE,
        true);
  }

  private static Container cached(
      String pod, String name, String id, ContainerState state, String cpus, long seq) {
    return Container.builder()
        .cacheId("uid-" + pod + ":" + name)
        .id(id)
        .podId(pod)
        .name(name)
        .namespace("default")
        .image("img")
        .state(state)
        .resources(ONE_CPU)
        .qosClass(QosClass.GUARANTEED)
        .assignment(Assignment.of(CpuSet.parse(cpus), CpuSet.of(0)))
        .seq(seq)
        .build();
  }

  private static io.criresmgr.api.runtime.v1.Container listed(
      String pod, String name, String id, long createdAt) {
    return io.criresmgr.api.runtime.v1.Container.newBuilder()
        .setId(id)
        .setPodSandboxId(pod)
        .setMetadata(ContainerMetadata.newBuilder().setName(name))
        .setState(io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING)
        .setCreatedAt(createdAt)
        .build();
  }

  private static ContainerStatus status(String id, String name) {
    LinuxContainerResources oneCpu =
        LinuxContainerResources.newBuilder()
            .setCpuShares(1024)
            .setCpuQuota(100000)
            .setCpuPeriod(100000)
            .build();
    return ContainerStatus.newBuilder()
        .setId(id)
        .setMetadata(ContainerMetadata.newBuilder().setName(name))
        .setState(io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING)
        .setResources(ContainerResources.newBuilder().setLinux(oneCpu))
        .build();
  }

  @Test
  void dropsTheVanishedKeepsTheKnownAndAdoptsTheNewInCreationOrder() {
    cache.putPod(pod("p1"));
    cache.putContainer(cached("p1", "kept", "id-kept", ContainerState.RUNNING, "2", 1));
    cache.putContainer(cached("p1", "gone", "id-gone", ContainerState.RUNNING, "0", 2));
    cache.setActivePolicy("template");
    Section s = section("template");
    Reconciler.Input input =
        new Reconciler.Input(
            List.of(PodSandbox.newBuilder().setId("p1").build()),
            Map.of(),
            List.of(
                listed("p1", "kept", "id-kept", 10),
                listed("p1", "new2", "id-n2", 30),
                listed("p1", "new1", "id-n1", 20)),
            Map.of("id-n1", status("id-n1", "new1"), "id-n2", status("id-n2", "new2")));
    Reconciler.Outcome outcome = new Reconciler(s).reconcile(input);
    assertEquals(new Reconciler.Outcome(1, 2, 1), outcome);
    assertTrue(cache.container("uid-p1:gone").isEmpty());
    assertEquals(CpuSet.of(2), cache.container("uid-p1:kept").orElseThrow().assignment().cpus());
    // CPU 0 was freed by the vanished container; the older new container gets it first.
    assertEquals(CpuSet.of(0), cache.container("uid-p1:new1").orElseThrow().assignment().cpus());
    assertEquals(CpuSet.of(1), cache.container("uid-p1:new2").orElseThrow().assignment().cpus());
    assertEquals(List.of("uid-p1:new1=0", "uid-p1:new2=1"), updates);
  }

  @Test
  void aContainerThatWasBeingCreatedIsEnforcedAgainWithItsRuntimeId() {
    cache.putPod(pod("p1"));
    cache.putContainer(cached("p1", "c", "", ContainerState.CREATING, "3", 1));
    cache.setActivePolicy("template");
    Section s = section("template");
    new Reconciler(s)
        .reconcile(
            new Reconciler.Input(
                List.of(PodSandbox.newBuilder().setId("p1").build()),
                Map.of(),
                List.of(listed("p1", "c", "id-c", 10)),
                Map.of("id-c", status("id-c", "c"))));
    Container c = cache.container("uid-p1:c").orElseThrow();
    assertEquals("id-c", c.id());
    assertEquals(ContainerState.RUNNING, c.state());
    assertEquals(List.of("uid-p1:c=3"), updates);
  }

  @Test
  void aPolicySwitchAllocatesEveryContainerAfresh() {
    cache.putPod(pod("p1"));
    cache.putContainer(cached("p1", "a", "id-a", ContainerState.RUNNING, "3", 1));
    cache.setActivePolicy("other");
    cache.setPolicyData("other", JsonNodeFactory.instance.objectNode().put("x", 1));
    Section s = section("template");
    new Reconciler(s)
        .reconcile(
            new Reconciler.Input(
                List.of(PodSandbox.newBuilder().setId("p1").build()),
                Map.of(),
                List.of(listed("p1", "a", "id-a", 10)),
                Map.of("id-a", status("id-a", "a"))));
    assertEquals(CpuSet.of(0), cache.container("uid-p1:a").orElseThrow().assignment().cpus());
    assertEquals("template", cache.activePolicy());
    assertTrue(cache.policyData("other").isEmpty());
  }

  @Test
  void vanishedPodsTakeTheirContainersWithThem() {
    cache.putPod(pod("p1"));
    cache.putContainer(cached("p1", "a", "id-a", ContainerState.RUNNING, "0", 1));
    Section s = section("template");
    new Reconciler(s).reconcile(new Reconciler.Input(List.of(), Map.of(), List.of(), Map.of()));
    assertTrue(cache.pods().isEmpty());
    assertTrue(cache.containers().isEmpty());
  }

  @Test
  void aContainerReleasedWhileTheRuntimeKeptItCreatedIsAllocatedAfresh() {
    // Kubelet stopped it while it was created: the cache released CPU 0, which "run" got since.
    cache.putPod(pod("p1"));
    cache.putContainer(cached("p1", "stopped", "id-s", ContainerState.EXITED, "0", 1));
    cache.putContainer(cached("p1", "run", "id-r", ContainerState.RUNNING, "0", 2));
    cache.setActivePolicy("template");
    Section s = section("template");
    io.criresmgr.api.runtime.v1.Container created =
        listed("p1", "stopped", "id-s", 10).toBuilder()
            .setState(io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_CREATED)
            .build();
    Reconciler.Outcome outcome =
        new Reconciler(s)
            .reconcile(
                new Reconciler.Input(
                    List.of(PodSandbox.newBuilder().setId("p1").build()),
                    Map.of(),
                    List.of(created, listed("p1", "run", "id-r", 20)),
                    Map.of()));
    assertEquals(new Reconciler.Outcome(0, 1, 1), outcome);
    Container stopped = cache.container("uid-p1:stopped").orElseThrow();
    assertEquals(ContainerState.CREATED, stopped.state());
    assertEquals(CpuSet.of(1), stopped.assignment().cpus());
    assertEquals(CpuSet.of(0), cache.container("uid-p1:run").orElseThrow().assignment().cpus());
    assertEquals(List.of("uid-p1:stopped=1"), updates);
  }
}
