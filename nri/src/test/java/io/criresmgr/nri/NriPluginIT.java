package io.criresmgr.nri;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.nri.api.Container;
import io.criresmgr.nri.api.ContainerAdjustment;
import io.criresmgr.nri.api.ContainerUpdate;
import io.criresmgr.nri.api.CreateContainerResponse;
import io.criresmgr.nri.api.Event;
import io.criresmgr.nri.api.LinuxCPU;
import io.criresmgr.nri.api.LinuxContainerAdjustment;
import io.criresmgr.nri.api.LinuxContainerUpdate;
import io.criresmgr.nri.api.LinuxResources;
import io.criresmgr.nri.api.OptionalString;
import io.criresmgr.nri.api.PodSandbox;
import io.criresmgr.nri.ttrpc.TtrpcException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** An NriPlugin against FakeNriRuntime over a real Unix socket. */
@Timeout(30)
class NriPluginIT {
  @TempDir Path dir;
  private FakeNriRuntime runtime;
  private NriPlugin plugin;
  private final BlockingQueue<String> seen = new LinkedBlockingQueue<>();

  /** Places every new container on CPUs 2-3 and moves the first synchronized one to 0-1. */
  private final class Placer implements NriHandler {
    @Override
    public void configure(String config, String runtimeName, String runtimeVersion) {
      seen.add("configure " + config + " " + runtimeName + " " + runtimeVersion);
    }

    @Override
    public List<ContainerUpdate> synchronize(List<PodSandbox> pods, List<Container> containers) {
      seen.add("synchronize " + pods.size() + " " + containers.size());
      return List.of(update(containers.get(0).getId(), "0-1"));
    }

    @Override
    public CreateContainerResponse createContainer(PodSandbox pod, Container container) {
      LinuxResources resources =
          LinuxResources.newBuilder()
              .setCpu(LinuxCPU.newBuilder().setCpus("2-3").setMems("0"))
              .setRdtClass(OptionalString.newBuilder().setValue("gold"))
              .build();
      return CreateContainerResponse.newBuilder()
          .setAdjust(
              ContainerAdjustment.newBuilder()
                  .setLinux(LinuxContainerAdjustment.newBuilder().setResources(resources)))
          .addUpdate(update("other", "4-5"))
          .build();
    }

    @Override
    public void startContainer(PodSandbox pod, Container container) {
      seen.add("start " + container.getId());
    }

    @Override
    public void removePodSandbox(PodSandbox pod) {
      seen.add("remove pod " + pod.getId());
    }
  }

  @BeforeEach
  void connect() throws Exception {
    Path socket = dir.resolve("nri.sock");
    runtime = FakeNriRuntime.listen(socket);
    CompletableFuture<Void> accepted =
        CompletableFuture.runAsync(
            () -> {
              try {
                runtime.accept();
              } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
              }
            });
    plugin =
        NriPlugin.connect(NriPluginOptions.of("resmgr", "90").withSocket(socket), new Placer());
    accepted.get(5, TimeUnit.SECONDS);
  }

  @AfterEach
  void close() throws Exception {
    plugin.close();
    runtime.close();
  }

  @Test
  void registersConfiguresSynchronizesAndAdjustsNewContainers() throws Exception {
    var registration = runtime.registration();
    assertEquals("resmgr", registration.getPluginName());
    assertEquals("90", registration.getPluginIdx());

    int events = runtime.configure("{policy: topology-aware}").getEvents();
    assertEquals(
        NriEvents.mask(
            EnumSet.of(Event.CREATE_CONTAINER, Event.START_CONTAINER, Event.REMOVE_POD_SANDBOX)),
        events);
    // CREATE_CONTAINER (4) is bit 3, START_CONTAINER (6) bit 5, REMOVE_POD_SANDBOX (3) bit 2
    assertEquals(0b10_1100, events);
    assertEquals("configure {policy: topology-aware} fake-runtime 1.7.24", next());

    PodSandbox pod = PodSandbox.newBuilder().setId("pod0").setName("web").build();
    Container existing = Container.newBuilder().setId("c0").setPodSandboxId("pod0").build();
    var sync = runtime.synchronize(List.of(pod), List.of(existing));
    assertEquals("synchronize 1 1", next());
    assertEquals(List.of(update("c0", "0-1")), sync.getUpdateList());

    Container created = Container.newBuilder().setId("c1").setPodSandboxId("pod0").build();
    CreateContainerResponse answer = runtime.createContainer(pod, created);
    LinuxResources adjusted = answer.getAdjust().getLinux().getResources();
    assertEquals("2-3", adjusted.getCpu().getCpus());
    assertEquals("0", adjusted.getCpu().getMems());
    assertEquals("gold", adjusted.getRdtClass().getValue());
    assertEquals(List.of(update("other", "4-5")), answer.getUpdateList());

    runtime.stateChange(Event.START_CONTAINER, pod, created);
    assertEquals("start c1", next());
    runtime.stateChange(Event.REMOVE_POD_SANDBOX, pod, Container.getDefaultInstance());
    assertEquals("remove pod pod0", next());
  }

  @Test
  void pluginRequestsUnsolicitedUpdates() throws Exception {
    runtime.registration();
    assertEquals(List.of(), plugin.updateContainers(List.of(update("c9", "7")), List.of()));
    assertEquals(List.of(update("c9", "7")), runtime.updateRequest().getUpdateList());
  }

  @Test
  void unknownPluginMethodIsUnimplemented() throws Exception {
    runtime.registration();
    var e =
        assertThrows(
            TtrpcException.class,
            () ->
                runtime.call(
                    "ValidateContainerAdjustment",
                    io.criresmgr.nri.api.Empty.getDefaultInstance(),
                    io.criresmgr.nri.api.Empty.parser()));
    assertEquals(TtrpcException.Code.UNIMPLEMENTED, e.code());
  }

  @Test
  void runtimeClosingTheConnectionIsReported() throws Exception {
    runtime.registration();
    runtime.disconnect();
    plugin.closed().get(5, TimeUnit.SECONDS);
    var e = assertThrows(TtrpcException.class, () -> plugin.updateContainers(List.of(), List.of()));
    assertEquals(TtrpcException.Code.UNAVAILABLE, e.code());
  }

  @Test
  void missingSocketNamesThePath() {
    Path missing = dir.resolve("none.sock");
    var e =
        assertThrows(
            NriException.class,
            () ->
                NriPlugin.connect(
                    NriPluginOptions.of("x", "10").withSocket(missing), new NriHandler() {}));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }

  @Test
  void badIndexIsRejectedWithTheValue() {
    var e = assertThrows(IllegalArgumentException.class, () -> NriPluginOptions.of("x", "7"));
    assertEquals("NRI plugin index: '7' must be two digits, 00 to 99", e.getMessage());
  }

  private String next() throws InterruptedException {
    String s = seen.poll(5, TimeUnit.SECONDS);
    return s == null ? "<nothing within 5 s>" : s;
  }

  private static ContainerUpdate update(String id, String cpus) {
    return ContainerUpdate.newBuilder()
        .setContainerId(id)
        .setLinux(
            LinuxContainerUpdate.newBuilder()
                .setResources(
                    LinuxResources.newBuilder().setCpu(LinuxCPU.newBuilder().setCpus(cpus))))
        .build();
  }
}
