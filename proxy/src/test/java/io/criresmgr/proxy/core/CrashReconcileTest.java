package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ContainerResources;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.Pod;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.template.TemplatePolicyProvider;
import io.criresmgr.proxy.core.cri.ContainerCodec;
import io.criresmgr.proxy.core.cri.LinuxResourcesCodec;
import io.criresmgr.proxy.core.cri.PodCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Start-up reconciliation in the states {@link CrashIT} found a killed daemon leaves behind:
 * released containers must not get their old CPUs back, and an update the runtime never received
 * must be sent again.
 */
class CrashReconcileTest {
  private final NodeCache cache = new NodeCache();
  private final List<String> updates = new ArrayList<>();
  private final Section section = section();
  private final List<PodSandbox> pods = new ArrayList<>();
  private final List<io.criresmgr.api.runtime.v1.Container> listed = new ArrayList<>();
  private final Map<String, ContainerStatus> statuses = new HashMap<>();

  @Test
  void aCreatedContainerOfAStoppedPodStaysReleased() {
    Pod stopped = pod(1, false);
    Pod ready = pod(2, true);
    // StopPodSandbox released x1 (the runtime keeps it created); x2 then got its CPU 0.
    cached(stopped, "x1", "id-1", ContainerState.EXITED, "0");
    cached(ready, "x2", "id-2", ContainerState.RUNNING, "0");
    listed(stopped, "x1", 0, "id-1", io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_CREATED);
    listed(ready, "x2", 0, "id-2", io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING);

    reconcile();

    assertEquals(List.of("uid-2:x2 RUNNING 0"), active());
    assertEquals(List.of(), updates);
  }

  @Test
  void aReCreatedContainerIsAllocatedAfreshNotGivenTheExitedOnesCpus() {
    Pod pod = pod(1, true);
    // x1 exited and released CPU 0, which x2 got; kubelet re-created x1, then the daemon died
    // before saving the re-creation.
    cached(pod, "x1", "id-old", ContainerState.EXITED, "0");
    cached(pod, "x2", "id-2", ContainerState.RUNNING, "0");
    listed(pod, "x1", 0, "id-old", io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_EXITED);
    listed(pod, "x2", 0, "id-2", io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING);
    listed(pod, "x1", 1, "id-new", io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_CREATED);

    reconcile();

    assertEquals(List.of("uid-1:x1 CREATED 1", "uid-1:x2 RUNNING 0"), active());
    assertEquals(List.of("uid-1:x1 1"), updates);
  }

  @Test
  void anUpdateTheRuntimeNeverGotIsSentAgain() {
    Pod pod = pod(1, true);
    // The cache was saved with s1 moved to 1-7; the daemon died before the runtime took it.
    cached(pod, "s1", "id-1", ContainerState.RUNNING, "1-7");
    listed(pod, "s1", 0, "id-1", io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING);
    statuses.put("id-1", withCpus(statuses.get("id-1"), "0-7"));

    reconcile();

    assertEquals(List.of("uid-1:s1 1-7"), updates);
    assertEquals(List.of(), cache.container("uid-1:s1").orElseThrow().pending().stream().toList());
  }

  @Test
  void anAssignmentTheRuntimeHasIsNotSentAgain() {
    Pod pod = pod(1, true);
    cached(pod, "s1", "id-1", ContainerState.RUNNING, "1-7");
    listed(pod, "s1", 0, "id-1", io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING);

    reconcile();

    assertEquals(List.of(), updates);
    assertFalse(cache.container("uid-1:s1").isEmpty());
  }

  private Section section() {
    TemplatePolicyProvider provider = new TemplatePolicyProvider();
    PolicyContext context =
        new PolicyContext(
            Path.of("/"), CpuSet.range(0, 7), CpuSet.of(0), Map.of("CPU", "cpuset:0-7"), Map.of());
    ActivePolicy policy =
        new ActivePolicy(
            provider.name(),
            provider.create(context, provider.parseOptions(JsonNodeFactory.instance.objectNode())));
    Controller recorder =
        new Controller() {
          @Override
          public String name() {
            return CriController.NAME;
          }

          @Override
          public void postUpdate(Container c) {
            updates.add(c.cacheId() + " " + c.assignment().cpus());
          }
        };
    ControllerSet controllers = new ControllerSet(List.of(recorder));
    controllers.configure(Map.of(), new ControllerContext(Path.of(""), Path.of(""), Map.of()));
    cache.setActivePolicy(provider.name());
    return new Section(cache, policy, controllers);
  }

  /** Pod {@code n}: sandbox id {@code pod-n}, UID {@code uid-n}. */
  private Pod pod(int n, boolean ready) {
    Pod pod = PodCodec.fromRequest("pod-" + n, CrashRequests.runPod(n)).withReady(ready);
    cache.putPod(pod);
    pods.add(
        PodSandbox.newBuilder()
            .setId(pod.id())
            .setMetadata(CrashRequests.runPod(n).getConfig().getMetadata())
            .setState(ready ? PodSandboxState.SANDBOX_READY : PodSandboxState.SANDBOX_NOTREADY)
            .build());
    return pod;
  }

  private void cached(Pod pod, String name, String id, ContainerState state, String cpus) {
    Container c =
        ContainerCodec.fromRequest(
                ContainerCodec.cacheId(pod, name),
                cache.nextSeq(),
                pod,
                CrashRequests.create(sandbox(pod), name, 0))
            .withId(id)
            .withState(state)
            .withAssignment(Assignment.of(CpuSet.parse(cpus), CpuSet.of(0)), Set.of());
    section.put(c);
  }

  private void listed(
      Pod pod, String name, int attempt, String id, io.criresmgr.api.runtime.v1.ContainerState s) {
    ContainerMetadata metadata =
        ContainerMetadata.newBuilder().setName(name).setAttempt(attempt).build();
    listed.add(
        io.criresmgr.api.runtime.v1.Container.newBuilder()
            .setId(id)
            .setPodSandboxId(pod.id())
            .setMetadata(metadata)
            .setState(s)
            .setCreatedAt(listed.size() + 1)
            .build());
    if (s != io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_EXITED) {
      // What the runtime holds: the request with the cached assignment, if there is one.
      var request = CrashRequests.create(sandbox(pod), name, attempt).getConfig();
      var linux =
          cache
              .container(ContainerCodec.cacheId(pod, name))
              .filter(c -> c.id().equals(id))
              .map(c -> LinuxResourcesCodec.toProto(c.effectiveResources()))
              .orElse(request.getLinux().getResources().toBuilder().setCpusetCpus("0-7").build());
      statuses.put(
          id,
          ContainerStatus.newBuilder()
              .setId(id)
              .setMetadata(metadata)
              .setState(s)
              .setImage(request.getImage())
              .setResources(ContainerResources.newBuilder().setLinux(linux))
              .build());
    }
  }

  private static ContainerStatus withCpus(ContainerStatus status, String cpus) {
    return status.toBuilder()
        .setResources(
            ContainerResources.newBuilder()
                .setLinux(status.getResources().getLinux().toBuilder().setCpusetCpus(cpus)))
        .build();
  }

  private PodSandbox sandbox(Pod pod) {
    return pods.stream().filter(p -> p.getId().equals(pod.id())).findFirst().orElseThrow();
  }

  private void reconcile() {
    new Reconciler(section).reconcile(new Reconciler.Input(pods, Map.of(), listed, statuses));
  }

  /** Active containers as "cacheId STATE cpus", sorted. */
  private List<String> active() {
    return cache.containers().stream()
        .filter(c -> c.state().isActive())
        .map(c -> c.cacheId() + " " + c.state() + " " + c.assignment().cpus())
        .sorted()
        .toList();
  }
}
