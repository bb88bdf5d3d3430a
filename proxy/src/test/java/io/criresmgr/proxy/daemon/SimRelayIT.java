package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ExecSyncRequest;
import io.criresmgr.api.runtime.v1.GetEventsRequest;
import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListImagesRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.PullImageRequest;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StatusRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.core.cri.RequestedAnnotation;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.sim.IdGenerator;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import io.grpc.Context;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crictl-style workflow against the simulated runtime, once directly and once through the daemon,
 * over real Unix sockets: every reply (or error) and the event stream must be identical, but for
 * the annotation and the exported-resources mount the daemon adds to the containers it creates.
 */
class SimRelayIT {
  /**
   * The container annotation the daemon adds at CreateContainer, which the runtime then reports
   * (docs/architecture.md, "What survives the loss of the cache"): the one difference allowed.
   */
  private static final Pattern ANNOTATION =
      Pattern.compile(
          "(?m)^ *annotations \\{\n *key: \""
              + Pattern.quote(RequestedAnnotation.KEY)
              + "\"\n *value: \"\\{.*\\}\"\n *\\}\n");

  @TempDir Path dir;

  /**
   * The read-only mount of the container's exported resource data (docs/exported-resources.md) that
   * the daemon adds at CreateContainer, which the runtime then reports: the other difference
   * allowed.
   */
  private Pattern exportMount() {
    return Pattern.compile(
        "(?m)^ *mounts \\{\n *container_path: \"/\\.cri-resmgr\"\n *host_path: \""
            + Pattern.quote(dir.resolve("state/containers/uid-0-c0").toString())
            + "\"\n *readonly: true\n *\\}\n");
  }

  private static SimRuntime newSim() {
    return new SimRuntime(
        SimOptions.defaults()
            .withClock(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC))
            .withIds(IdGenerator.sequential())
            .withRuntimeName("containerd"));
  }

  @Test
  void theWorkflowThroughTheProxyMatchesTheDirectOne() throws Exception {
    List<String> direct;
    try (SimRuntimeServer sim = new SimRuntimeServer(dir.resolve("a.sock"), newSim()).start();
        RawClient client = new RawClient(sim.socket())) {
      direct = workflow(client, sim.runtime());
    }
    List<String> proxied;
    try (SimRuntimeServer sim = new SimRuntimeServer(dir.resolve("b.sock"), newSim()).start()) {
      Daemon daemon =
          Daemon.start(
              TestDaemons.options(dir, sim.socket(), false), new ConfigStore(TestDaemons.config()));
      try (RawClient client = new RawClient(dir.resolve("relay/cri-resmgr.sock"))) {
        proxied = workflow(client, sim.runtime());
      } finally {
        daemon.close();
      }
    }
    assertTrue(direct.size() > 20, "the workflow recorded too little: " + direct);
    assertTrue(direct.stream().anyMatch(s -> s.startsWith("error NOT_FOUND")), direct.toString());
    assertTrue(
        proxied.stream().anyMatch(s -> ANNOTATION.matcher(s).find()),
        "the container records its requested resources: " + proxied);
    assertTrue(
        proxied.stream().anyMatch(s -> exportMount().matcher(s).find()),
        "the container sees its exported resource data: " + proxied);
    assertEquals(direct, withoutDaemonAdditions(proxied));
  }

  private List<String> withoutDaemonAdditions(List<String> log) {
    Pattern mount = exportMount();
    return log.stream()
        .map(s -> mount.matcher(ANNOTATION.matcher(s).replaceAll("")).replaceAll(""))
        .toList();
  }

  /** Runs the workflow, recording every reply in text form and each error's code and text. */
  private static List<String> workflow(RawClient client, SimRuntime sim) throws Exception {
    var rt =
        RuntimeServiceGrpc.newBlockingStub(client.channel())
            .withDeadlineAfter(30, TimeUnit.SECONDS);
    var img =
        ImageServiceGrpc.newBlockingStub(client.channel()).withDeadlineAfter(30, TimeUnit.SECONDS);
    List<String> log = new ArrayList<>();
    Context.CancellableContext events = Context.current().withCancellation();
    Iterator<?> stream =
        events.call(() -> rt.getContainerEvents(GetEventsRequest.getDefaultInstance()));
    awaitSubscriber(sim); // else the first events may be emitted before the stream is registered

    record(log, () -> rt.version(VersionRequest.newBuilder().setVersion("0.1.0").build()));
    record(log, () -> rt.status(StatusRequest.newBuilder().setVerbose(true).build()));
    ImageSpec busybox = ImageSpec.newBuilder().setImage("localhost/e2e/busybox:1").build();
    record(log, () -> img.pullImage(PullImageRequest.newBuilder().setImage(busybox).build()));
    record(log, () -> img.listImages(ListImagesRequest.getDefaultInstance()));
    PodSandboxConfig pod =
        PodSandboxConfig.newBuilder()
            .setMetadata(
                PodSandboxMetadata.newBuilder()
                    .setName("pod0")
                    .setNamespace("default")
                    .setUid("uid-0"))
            .putLabels("app", "demo")
            .build();
    String podId =
        rt.runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(pod).build())
            .getPodSandboxId();
    log.add("pod " + podId);
    LinuxContainerResources resources =
        LinuxContainerResources.newBuilder()
            .setCpusetCpus("0")
            .setCpuShares(512)
            .setMemoryLimitInBytes(256L << 20)
            .build();
    ContainerConfig container =
        ContainerConfig.newBuilder()
            .setMetadata(ContainerMetadata.newBuilder().setName("c0"))
            .setImage(busybox)
            .addCommand("sh")
            .setLinux(LinuxContainerConfig.newBuilder().setResources(resources))
            .build();
    String id =
        rt.createContainer(
                CreateContainerRequest.newBuilder()
                    .setPodSandboxId(podId)
                    .setConfig(container)
                    .setSandboxConfig(pod)
                    .build())
            .getContainerId();
    log.add("container " + id);
    record(
        log,
        () -> rt.startContainer(StartContainerRequest.newBuilder().setContainerId(id).build()));
    record(
        log,
        () -> rt.containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build()));
    record(log, () -> rt.listContainers(ListContainersRequest.getDefaultInstance()));
    record(
        log,
        () ->
            rt.execSync(
                ExecSyncRequest.newBuilder()
                    .setContainerId(id)
                    .addCmd("echo")
                    .addCmd("hi")
                    .setTimeout(5)
                    .build()));
    record(
        log,
        () ->
            rt.updateContainerResources(
                UpdateContainerResourcesRequest.newBuilder()
                    .setContainerId(id)
                    .setLinux(resources.toBuilder().setCpusetCpus("1"))
                    .build()));
    record(
        log,
        () -> rt.containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build()));
    record(
        log,
        () ->
            rt.stopContainer(
                StopContainerRequest.newBuilder().setContainerId(id).setTimeout(10).build()));
    record(
        log,
        () -> rt.removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build()));
    record(
        log,
        () -> rt.containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build()));
    record(
        log,
        () -> rt.stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(podId).build()));
    record(
        log,
        () ->
            rt.removePodSandbox(
                RemovePodSandboxRequest.newBuilder().setPodSandboxId(podId).build()));
    record(log, () -> rt.listPodSandbox(ListPodSandboxRequest.getDefaultInstance()));
    for (int i = 0; i < 4; i++) { // created, started, stopped, deleted
      log.add("event " + stream.next());
    }
    events.cancel(null);
    return log;
  }

  private static void awaitSubscriber(SimRuntime sim) throws InterruptedException {
    for (int i = 0; i < 500 && sim.eventSubscribers() == 0; i++) {
      Thread.sleep(10);
    }
    assertEquals(1, sim.eventSubscribers(), "the event stream did not reach the runtime");
  }

  private static void record(List<String> log, Supplier<Object> call) {
    try {
      log.add(call.get().toString());
    } catch (StatusRuntimeException e) {
      log.add("error " + e.getStatus().getCode() + " " + e.getStatus().getDescription());
    }
  }
}
