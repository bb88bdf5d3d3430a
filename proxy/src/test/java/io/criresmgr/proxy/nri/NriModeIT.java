package io.criresmgr.proxy.nri;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.controllers.ControllerMode;
import io.criresmgr.nri.FakeNriRuntime;
import io.criresmgr.nri.NriPluginOptions;
import io.criresmgr.nri.api.Container;
import io.criresmgr.nri.api.ContainerState;
import io.criresmgr.nri.api.ContainerUpdate;
import io.criresmgr.nri.api.CreateContainerResponse;
import io.criresmgr.nri.api.Event;
import io.criresmgr.nri.api.LinuxCPU;
import io.criresmgr.nri.api.LinuxContainer;
import io.criresmgr.nri.api.LinuxMemory;
import io.criresmgr.nri.api.LinuxPodSandbox;
import io.criresmgr.nri.api.LinuxResources;
import io.criresmgr.nri.api.OptionalInt64;
import io.criresmgr.nri.api.OptionalUInt64;
import io.criresmgr.nri.api.PodSandbox;
import io.criresmgr.nri.api.RegisterPluginRequest;
import io.criresmgr.nri.api.StopContainerResponse;
import io.criresmgr.nri.api.UpdateContainerRequest;
import io.criresmgr.nri.api.UpdateContainerResponse;
import io.criresmgr.nri.ttrpc.TtrpcException;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.config.ResourceManagerConfig;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import io.grpc.StatusRuntimeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon in NRI mode ({@code --nri}) against {@link FakeNriRuntime} over a real Unix socket:
 * the same placements and refusals as the CRI relay for the same requests on the same simulated
 * 4-CPU host (policy template, exclusive CPUs), Synchronize adopting running containers, and the
 * plugin reconnecting after the runtime went away.
 */
class NriModeIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private Path host;

  @BeforeEach
  void fourCpus() throws Exception {
    host = dir.resolve("host");
    Files.createDirectories(host.resolve("sys/devices/system/cpu"));
    Files.writeString(host.resolve("sys/devices/system/cpu/online"), "0-3\n");
  }

  /** What a front end does with the scenario's requests. */
  private interface FrontEnd {
    void runPod() throws Exception;

    /** The CPUs the container got, or "refused: " and the error text. */
    String create(String name, int cpus) throws Exception;

    void remove(String name) throws Exception;
  }

  /** Creates and removes guaranteed containers; returns what each creation gave. */
  private static List<String> scenario(FrontEnd f) throws Exception {
    List<String> out = new ArrayList<>();
    f.runPod();
    out.add(f.create("c0", 1));
    out.add(f.create("big", 5));
    out.add(f.create("c1", 3));
    out.add(f.create("c2", 1));
    f.remove("c1");
    out.add(f.create("c2", 1));
    return out;
  }

  @Test
  void placesAndRefusesAsTheRelayDoes() throws Exception {
    List<String> relayed;
    try (SimRuntimeServer sim =
        new SimRuntimeServer(
                dir.resolve("rt.sock"),
                new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
            .start()) {
      Daemon daemon = Daemon.start(relayOptions(sim.socket()), new ConfigStore(templateConfig()));
      try (RawClient client = new RawClient(dir.resolve("relay/cri-resmgr.sock"))) {
        relayed = scenario(new Relayed(client, daemon));
      } finally {
        daemon.close();
      }
    }
    try (FakeNriRuntime nri = FakeNriRuntime.listen(dir.resolve("nri.sock"))) {
      Daemon daemon = Daemon.start(nriOptions("nri-state"), new ConfigStore(templateConfig()));
      try {
        connect(nri);
        assertTrue(nri.synchronize(List.of(), List.of()).getUpdateList().isEmpty());
        Plugged plugged = new Plugged(nri, daemon);
        List<String> viaNri = scenario(plugged);
        assertEquals(relayed, viaNri);
        assertEquals("0", viaNri.get(0));
        assertTrue(
            viaNri
                .get(1)
                .startsWith(
                    "refused: RESOURCE_EXHAUSTED failed to allocate resources of container uid-0:big:"
                        + " not enough free CPUs for exclusive allocation of 5 CPUs"),
            viaNri.get(1));
        assertEquals("1-3", viaNri.get(2));
        assertTrue(viaNri.get(3).startsWith("refused: "), viaNri.get(3));
        assertEquals("1", viaNri.get(4));
        JsonNode containers = JSON.readTree(get(daemon, "/introspect")).get("pods").get(0);
        Map<String, String> placed = new HashMap<>();
        containers
            .get("containers")
            .forEach(
                c ->
                    placed.put(
                        c.get("cacheId").asText(), c.get("assignment").get("cpus").asText()));
        assertEquals(Map.of("uid-0:c0", "0", "uid-0:c2", "1"), placed);
      } finally {
        daemon.close();
      }
    }
  }

  @Test
  void synchronizeAdoptsRunningContainersAndReconnectingKeepsThem() throws Exception {
    try (FakeNriRuntime nri = FakeNriRuntime.listen(dir.resolve("nri.sock"))) {
      Daemon daemon = Daemon.start(nriOptions("state"), new ConfigStore(templateConfig()));
      try {
        connect(nri);
        PodSandbox pod = pod();
        Container running =
            container("c9", 1).toBuilder()
                .setState(ContainerState.CONTAINER_RUNNING)
                .setLinux(
                    LinuxContainer.newBuilder()
                        .setResources(
                            resources(1).toBuilder()
                                .setCpu(resources(1).getCpu().toBuilder().setCpus("0-3"))))
                .build();
        List<ContainerUpdate> updates =
            nri.synchronize(List.of(pod), List.of(running)).getUpdateList();
        JsonNode adopted = onlyContainer(daemon);
        assertEquals("uid-0:c9", adopted.get("cacheId").asText());
        assertEquals("running", adopted.get("state").asText());
        String cpus = adopted.get("assignment").get("cpus").asText();
        assertEquals(1, cpus.length(), cpus); // one exclusive CPU out of the 0-3 it ran on
        assertEquals(1, updates.size(), updates.toString());
        assertEquals("ctr-c9", updates.get(0).getContainerId());
        assertEquals(cpus, updates.get(0).getLinux().getResources().getCpu().getCpus());

        nri.disconnect();
        connect(nri); // the plugin comes back after its backoff
        nri.synchronize(List.of(pod), List.of(running));
        JsonNode kept = onlyContainer(daemon);
        assertEquals(cpus, kept.get("assignment").get("cpus").asText());
      } finally {
        daemon.close();
      }
    }
  }

  @Test
  void updatesOfOtherContainersGoInTheAnswerOrOnTheirOwn() throws Exception {
    try (FakeNriRuntime nri = FakeNriRuntime.listen(dir.resolve("nri.sock"))) {
      Daemon daemon = Daemon.start(nriOptions("state"), new ConfigStore(templateConfig()));
      try {
        connect(nri);
        nri.synchronize(List.of(), List.of());
        PodSandbox shared = pod();
        PodSandbox exclusive =
            pod().toBuilder()
                .setId("pod-1")
                .setName("pod1")
                .setUid("uid-1")
                .setLinux(LinuxPodSandbox.newBuilder().setCgroupParent("/kubepods/poduid-1"))
                .build();
        nri.stateChange(Event.RUN_POD_SANDBOX, shared, Container.getDefaultInstance());
        nri.stateChange(Event.RUN_POD_SANDBOX, exclusive, Container.getDefaultInstance());
        Container half =
            container("s0", 1).toBuilder()
                .setLinux(
                    LinuxContainer.newBuilder()
                        .setResources(
                            LinuxResources.newBuilder()
                                .setCpu(
                                    LinuxCPU.newBuilder()
                                        .setShares(OptionalUInt64.newBuilder().setValue(512))
                                        .setQuota(OptionalInt64.newBuilder().setValue(50000))
                                        .setPeriod(OptionalUInt64.newBuilder().setValue(100000)))))
                .build();
        CreateContainerResponse first = nri.createContainer(shared, half);
        assertEquals("0-3", first.getAdjust().getLinux().getResources().getCpu().getCpus());
        assertTrue(first.getUpdateList().isEmpty(), first.getUpdateList().toString());

        Container one = container("e1", 1).toBuilder().setPodSandboxId("pod-1").build();
        CreateContainerResponse second = nri.createContainer(exclusive, one);
        assertEquals("0", second.getAdjust().getLinux().getResources().getCpu().getCpus());
        assertEquals(1, second.getUpdateCount(), second.getUpdateList().toString());
        assertEquals("ctr-s0", second.getUpdate(0).getContainerId());
        assertEquals("1-3", second.getUpdate(0).getLinux().getResources().getCpu().getCpus());

        // An event has no answer: the shared container gets its CPUs back through UpdateContainers.
        nri.stateChange(Event.STOP_POD_SANDBOX, exclusive, Container.getDefaultInstance());
        var sent = nri.updateRequest();
        assertEquals(1, sent.getUpdateCount(), sent.toString());
        assertEquals("ctr-s0", sent.getUpdate(0).getContainerId());
        assertEquals("0-3", sent.getUpdate(0).getLinux().getResources().getCpu().getCpus());
      } finally {
        daemon.close();
      }
    }
  }

  @Test
  void updateContainerAnswersWithTheDecisionForTheNewResources() throws Exception {
    try (FakeNriRuntime nri = FakeNriRuntime.listen(dir.resolve("nri.sock"))) {
      Daemon daemon = Daemon.start(nriOptions("state"), new ConfigStore(templateConfig()));
      try {
        connect(nri);
        nri.synchronize(List.of(), List.of());
        nri.stateChange(Event.RUN_POD_SANDBOX, pod(), Container.getDefaultInstance());
        CreateContainerResponse created = nri.createContainer(pod(), container("c0", 1));
        assertEquals("0", created.getAdjust().getLinux().getResources().getCpu().getCpus());

        UpdateContainerResponse updated =
            nri.call(
                "UpdateContainer",
                UpdateContainerRequest.newBuilder()
                    .setPod(pod())
                    .setContainer(container("c0", 1))
                    .setLinuxResources(resources(2))
                    .build(),
                UpdateContainerResponse.parser());
        assertEquals(1, updated.getUpdateCount(), updated.toString());
        assertEquals("ctr-c0", updated.getUpdate(0).getContainerId());
        LinuxResources merged = updated.getUpdate(0).getLinux().getResources();
        assertEquals("0-1", merged.getCpu().getCpus());
        assertEquals(200000, merged.getCpu().getQuota().getValue());
        assertEquals("0-1", assignedCpus(daemon, "uid-0:c0"));
      } finally {
        daemon.close();
      }
    }
  }

  @Test
  void theMemoryQosFilesAreInTheAdjustment() throws Exception {
    try (FakeNriRuntime nri = FakeNriRuntime.listen(dir.resolve("nri.sock"))) {
      Daemon daemon = Daemon.start(nriOptionsWithCgroups(), new ConfigStore(memoryQosConfig()));
      try {
        connect(nri);
        nri.synchronize(List.of(), List.of());
        PodSandbox pod =
            pod().toBuilder()
                .putAnnotations("class.memory-qos.nri.io", "bronze")
                .setLinux(LinuxPodSandbox.newBuilder().setCgroupParent("/kubepods/burstable/pod0"))
                .build();
        nri.stateChange(Event.RUN_POD_SANDBOX, pod, Container.getDefaultInstance());
        Container c =
            container("c0", 0).toBuilder()
                .setLinux(
                    LinuxContainer.newBuilder()
                        .setResources(
                            LinuxResources.newBuilder()
                                .setMemory(
                                    LinuxMemory.newBuilder()
                                        .setLimit(
                                            OptionalInt64.newBuilder().setValue(100_000_000L)))))
                .build();
        CreateContainerResponse r = nri.createContainer(pod, c);
        assertEquals(
            Map.of("memory.high", "50000000", "memory.swap.max", "max"),
            r.getAdjust().getLinux().getResources().getUnifiedMap());
      } finally {
        daemon.close();
      }
    }
  }

  /**
   * NRI mode gives RDT classes as proxy mode does, through the rdt controller after the start, and
   * never as the adjustment's or an update's {@code rdt_class} or {@code blockio_class}: containerd
   * would resolve those against its own configuration (docs/nri.md, "RDT and block I/O classes").
   */
  @Test
  void rdtClassesStayWithTheControllerAndOutOfTheAnswers() throws Exception {
    Path resctrl = host.resolve("sys/fs/resctrl");
    write(resctrl.resolve("info/L3/cbm_mask"), "7ff\n");
    write(resctrl.resolve("info/L3/min_cbm_bits"), "2\n");
    write(resctrl.resolve("info/L3/num_closids"), "16\n");
    write(resctrl.resolve("schemata"), "L3:0=7ff\n");
    write(resctrl.resolve("tasks"), "");
    write(resctrl.resolve("gold/tasks"), "");
    write(resctrl.resolve("silver/tasks"), "");
    try (FakeNriRuntime nri = FakeNriRuntime.listen(dir.resolve("nri.sock"))) {
      Daemon daemon = Daemon.start(nriOptionsWithCgroups(), new ConfigStore(rdtConfig()));
      try {
        connect(nri);
        nri.synchronize(List.of(), List.of());
        PodSandbox pod =
            pod().toBuilder()
                .putAnnotations("rdtclass.cri-resource-manager.intel.com/pod", "gold")
                .build();
        nri.stateChange(Event.RUN_POD_SANDBOX, pod, Container.getDefaultInstance());
        CreateContainerResponse created = nri.createContainer(pod, container("c0", 1));
        LinuxResources adjusted = created.getAdjust().getLinux().getResources();
        assertFalse(adjusted.hasRdtClass(), created.toString());
        assertFalse(adjusted.hasBlockioClass(), created.toString());

        // The runtime makes the container's cgroup when it starts it.
        write(dir.resolve("cgroup/kubepods/poduid-0/ctr-c0/cgroup.procs"), "4242\n4243\n");
        nri.stateChange(Event.POST_START_CONTAINER, pod, container("c0", 1));
        // The class cri-resmgr's proxy mode gives: the pod's annotation, a discovered group.
        assertEquals("4242\n4243\n", Files.readString(resctrl.resolve("gold/tasks")));
        assertEquals("", Files.readString(resctrl.resolve("silver/tasks")));

        UpdateContainerResponse updated =
            nri.call(
                "UpdateContainer",
                UpdateContainerRequest.newBuilder()
                    .setPod(pod)
                    .setContainer(container("c0", 1))
                    .setLinuxResources(resources(2))
                    .build(),
                UpdateContainerResponse.parser());
        assertEquals(1, updated.getUpdateCount(), updated.toString());
        LinuxResources update = updated.getUpdate(0).getLinux().getResources();
        assertFalse(update.hasRdtClass(), updated.toString());
        assertFalse(update.hasBlockioClass(), updated.toString());
      } finally {
        daemon.close();
      }
    }
  }

  @Test
  void optedInClassesGoIntoTheAdjustmentAndTheControllersStillApplyThem() throws Exception {
    Path resctrl = host.resolve("sys/fs/resctrl");
    write(resctrl.resolve("info/L3/cbm_mask"), "7ff\n");
    write(resctrl.resolve("info/L3/min_cbm_bits"), "2\n");
    write(resctrl.resolve("info/L3/num_closids"), "16\n");
    write(resctrl.resolve("schemata"), "L3:0=7ff\n");
    write(resctrl.resolve("tasks"), "");
    write(resctrl.resolve("gold/tasks"), "");
    try (FakeNriRuntime nri = FakeNriRuntime.listen(dir.resolve("nri.sock"))) {
      Daemon daemon = Daemon.start(nriOptionsWithCgroups(), new ConfigStore(classesConfig()));
      try {
        connect(nri);
        nri.synchronize(List.of(), List.of());
        String rdt = "rdtclass.cri-resource-manager.intel.com";
        String blockio = "blockioclass.cri-resource-manager.intel.com";
        PodSandbox pod =
            pod().toBuilder()
                .putAnnotations(rdt + "/pod", "gold")
                .putAnnotations(blockio + "/pod", "LowPrio")
                // c1: a class not in NriClasses, an RDT class without a group
                .putAnnotations(blockio + "/container.c1", "HighPrio")
                .putAnnotations(rdt + "/container.c1", "bronze")
                // c2: a block I/O class nobody configured
                .putAnnotations(blockio + "/container.c2", "Nope")
                .build();
        nri.stateChange(Event.RUN_POD_SANDBOX, pod, Container.getDefaultInstance());

        LinuxResources c0 =
            nri.createContainer(pod, container("c0", 1)).getAdjust().getLinux().getResources();
        assertEquals("gold", c0.getRdtClass().getValue(), c0.toString());
        assertEquals("LowPrio", c0.getBlockioClass().getValue(), c0.toString());
        // Neither a class the runtime may not have nor one that does not resolve is sent, and
        // neither fails the creation.
        LinuxResources c1 =
            nri.createContainer(pod, container("c1", 0)).getAdjust().getLinux().getResources();
        assertFalse(c1.hasRdtClass(), c1.toString());
        assertFalse(c1.hasBlockioClass(), c1.toString());
        LinuxResources c2 =
            nri.createContainer(pod, container("c2", 0)).getAdjust().getLinux().getResources();
        assertEquals("gold", c2.getRdtClass().getValue(), c2.toString());
        assertFalse(c2.hasBlockioClass(), c2.toString());

        // After the start the controllers apply the same classes again, as without the option.
        Path cgroup = dir.resolve("cgroup/kubepods/poduid-0/ctr-c0");
        write(cgroup.resolve("cgroup.procs"), "4242\n");
        write(cgroup.resolve("io.weight"), "");
        write(cgroup.resolve("io.max"), "");
        nri.stateChange(Event.POST_START_CONTAINER, pod, container("c0", 1));
        assertEquals("4242\n", Files.readString(resctrl.resolve("gold/tasks")));
        // LowPrio's weight 80 in cgroup v2's scale, as runc writes it
        assertEquals("default 708\n", Files.readString(cgroup.resolve("io.weight")));

        // Updates cannot carry classes: a reassignment goes through the controllers.
        UpdateContainerResponse updated =
            nri.call(
                "UpdateContainer",
                UpdateContainerRequest.newBuilder()
                    .setPod(pod)
                    .setContainer(container("c0", 1))
                    .setLinuxResources(resources(2))
                    .build(),
                UpdateContainerResponse.parser());
        LinuxResources update = updated.getUpdate(0).getLinux().getResources();
        assertFalse(update.hasRdtClass(), updated.toString());
        assertFalse(update.hasBlockioClass(), updated.toString());
      } finally {
        daemon.close();
      }
    }
  }

  /**
   * Policy template; rdt (Discovery) and blockio required, both sending their classes through NRI
   * ({@code nriClasses}, {@code NriClasses}: LowPrio only); the other controllers off.
   */
  private static Config classesConfig() throws Exception {
    Config base = templateConfig();
    Map<String, ControllerMode> modes =
        Map.of(
            "memory-qos", ControllerMode.DISABLED,
            "memtierd", ControllerMode.DISABLED,
            "cgroups", ControllerMode.DISABLED,
            "rdt", ControllerMode.REQUIRED,
            "blockio", ControllerMode.REQUIRED);
    return new Config(
        base.policy(),
        new ResourceManagerConfig(modes),
        base.dump(),
        base.logger(),
        base.instrumentation(),
        Map.of(
            "rdt",
            JSON.readTree("{\"options\": {\"mode\": \"Discovery\", \"nriClasses\": true}}"),
            "blockio",
            JSON.readTree(
                "{\"Classes\": {\"LowPrio\": [{\"Weight\": 80}],"
                    + " \"HighPrio\": [{\"Weight\": 400}]}, \"NriClasses\": [\"LowPrio\"]}")));
  }

  /** Policy template with the rdt controller required in Discovery mode, the others off. */
  private static Config rdtConfig() throws Exception {
    Config base = templateConfig();
    Map<String, ControllerMode> modes =
        Map.of(
            "memory-qos", ControllerMode.DISABLED,
            "memtierd", ControllerMode.DISABLED,
            "cgroups", ControllerMode.DISABLED,
            "rdt", ControllerMode.REQUIRED,
            "blockio", ControllerMode.DISABLED);
    return new Config(
        base.policy(),
        new ResourceManagerConfig(modes),
        base.dump(),
        base.logger(),
        base.instrumentation(),
        Map.of("rdt", JSON.readTree("{\"options\": {\"mode\": \"Discovery\"}}")));
  }

  private static void write(Path file, String text) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  /** Policy memory-qos with class bronze, its controller required, the others off. */
  private static Config memoryQosConfig() throws Exception {
    Config base = TestDaemons.config();
    JsonNode section =
        JSON.readTree(
            "{\"classes\": [{\"name\": \"bronze\", \"swaplimitratio\": 0.5}],"
                + " \"unifiedannotations\": [\"memory.swap.max\", \"memory.high\"]}");
    Map<String, ControllerMode> modes =
        Map.of(
            "memory-qos", ControllerMode.REQUIRED,
            "memtierd", ControllerMode.DISABLED,
            "cgroups", ControllerMode.DISABLED,
            "rdt", ControllerMode.DISABLED,
            "blockio", ControllerMode.DISABLED);
    return new Config(
        new PolicyConfig("memory-qos", Map.of(), Map.of(), Map.of()),
        new ResourceManagerConfig(modes),
        base.dump(),
        base.logger(),
        base.instrumentation(),
        Map.of("memory-qos", section));
  }

  private static void connect(FakeNriRuntime nri) throws Exception {
    nri.accept();
    RegisterPluginRequest registration = nri.registration();
    assertEquals("cri-resmgr", registration.getPluginName());
    assertEquals("90", registration.getPluginIdx());
    nri.configure("");
  }

  /** The CRI relay in front of the simulated runtime. */
  private static final class Relayed implements FrontEnd {
    private final RuntimeServiceGrpc.RuntimeServiceBlockingStub rt;
    private final Daemon daemon;
    private final Map<String, String> ids = new HashMap<>();
    private String podId = "";

    Relayed(RawClient client, Daemon daemon) {
      this.rt =
          RuntimeServiceGrpc.newBlockingStub(client.channel())
              .withDeadlineAfter(30, TimeUnit.SECONDS);
      this.daemon = daemon;
    }

    @Override
    public void runPod() {
      podId =
          rt.runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(sandbox()).build())
              .getPodSandboxId();
    }

    @Override
    public String create(String name, int cpus) throws Exception {
      try {
        String id =
            rt.createContainer(
                    io.criresmgr.api.runtime.v1.CreateContainerRequest.newBuilder()
                        .setPodSandboxId(podId)
                        .setSandboxConfig(sandbox())
                        .setConfig(
                            ContainerConfig.newBuilder()
                                .setMetadata(ContainerMetadata.newBuilder().setName(name))
                                .setImage(ImageSpec.newBuilder().setImage("busybox"))
                                .setLinux(
                                    LinuxContainerConfig.newBuilder()
                                        .setResources(criResources(cpus))))
                        .build())
                .getContainerId();
        ids.put(name, id);
      } catch (StatusRuntimeException e) {
        return "refused: " + e.getStatus().getCode() + " " + e.getStatus().getDescription();
      }
      return assignedCpus(daemon, "uid-0:" + name);
    }

    @Override
    public void remove(String name) {
      String id = ids.get(name);
      rt.stopContainer(StopContainerRequest.newBuilder().setContainerId(id).build());
      rt.removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build());
    }
  }

  /** The daemon as the NRI plugin of the fake runtime. */
  private static final class Plugged implements FrontEnd {
    private final FakeNriRuntime nri;
    private final Daemon daemon;

    Plugged(FakeNriRuntime nri, Daemon daemon) {
      this.nri = nri;
      this.daemon = daemon;
    }

    @Override
    public void runPod() {
      nri.stateChange(Event.RUN_POD_SANDBOX, pod(), Container.getDefaultInstance());
    }

    @Override
    public String create(String name, int cpus) throws Exception {
      CreateContainerResponse r;
      try {
        r = nri.createContainer(pod(), container(name, cpus));
      } catch (TtrpcException e) {
        // The fake's client puts the call before the plugin's message.
        String call = "nri.pkg.api.v1alpha1.Plugin/CreateContainer on fake-runtime: ";
        assertTrue(e.detail().startsWith(call), e.detail());
        return "refused: " + e.code() + " " + e.detail().substring(call.length());
      }
      String adjusted = r.getAdjust().getLinux().getResources().getCpu().getCpus();
      assertEquals(assignedCpus(daemon, "uid-0:" + name), adjusted);
      return adjusted;
    }

    @Override
    public void remove(String name) {
      io.criresmgr.nri.api.StopContainerRequest.Builder stop =
          io.criresmgr.nri.api.StopContainerRequest.newBuilder()
              .setPod(pod())
              .setContainer(container(name, 0));
      nri.call("StopContainer", stop.build(), StopContainerResponse.parser());
      nri.stateChange(Event.REMOVE_CONTAINER, pod(), container(name, 0));
    }
  }

  private static PodSandboxConfig sandbox() {
    return PodSandboxConfig.newBuilder()
        .setMetadata(
            PodSandboxMetadata.newBuilder().setName("pod0").setNamespace("default").setUid("uid-0"))
        .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent("/kubepods/poduid-0"))
        .build();
  }

  private static PodSandbox pod() {
    return PodSandbox.newBuilder()
        .setId("pod-0")
        .setName("pod0")
        .setNamespace("default")
        .setUid("uid-0")
        .setLinux(LinuxPodSandbox.newBuilder().setCgroupParent("/kubepods/poduid-0"))
        .build();
  }

  private static Container container(String name, int cpus) {
    return Container.newBuilder()
        .setId("ctr-" + name)
        .setPodSandboxId("pod-0")
        .setName(name)
        .setLinux(LinuxContainer.newBuilder().setResources(resources(cpus)))
        .build();
  }

  private static LinuxResources resources(int cpus) {
    return LinuxResources.newBuilder()
        .setCpu(
            LinuxCPU.newBuilder()
                .setShares(OptionalUInt64.newBuilder().setValue(1024L * cpus))
                .setQuota(OptionalInt64.newBuilder().setValue(100000L * cpus))
                .setPeriod(OptionalUInt64.newBuilder().setValue(100000)))
        .build();
  }

  private static LinuxContainerResources criResources(int cpus) {
    return LinuxContainerResources.newBuilder()
        .setCpuShares(1024L * cpus)
        .setCpuQuota(100000L * cpus)
        .setCpuPeriod(100000)
        .build();
  }

  private static String assignedCpus(Daemon daemon, String cacheId) throws Exception {
    for (JsonNode pod : JSON.readTree(get(daemon, "/introspect")).get("pods")) {
      for (JsonNode c : pod.get("containers")) {
        if (c.get("cacheId").asText().equals(cacheId)) {
          return c.get("assignment").get("cpus").asText();
        }
      }
    }
    throw new AssertionError(cacheId + " is not in the introspection");
  }

  private static JsonNode onlyContainer(Daemon daemon) throws Exception {
    JsonNode pods = JSON.readTree(get(daemon, "/introspect")).get("pods");
    assertEquals(1, pods.size(), pods.toString());
    JsonNode containers = pods.get(0).get("containers");
    assertEquals(1, containers.size(), containers.toString());
    assertFalse(containers.get(0).get("assignment").isNull());
    return containers.get(0);
  }

  private DaemonOptions relayOptions(Path runtime) {
    return TestDaemons.options(dir, runtime, true, host);
  }

  private DaemonOptions nriOptions(String stateDir) {
    DaemonOptions o = relayOptions(dir.resolve("no-runtime.sock"));
    return o.toBuilder()
        .relayDir(dir.resolve(stateDir))
        .pidFile(dir.resolve(stateDir + ".pid"))
        .nri(
            Optional.of(
                NriPluginOptions.of("cri-resmgr", "90").withSocket(dir.resolve("nri.sock"))))
        .build();
  }

  /** NRI mode with the host's files under {@link #host} and cgroup v2 under {@code dir/cgroup}. */
  private DaemonOptions nriOptionsWithCgroups() throws Exception {
    Path cgroups = dir.resolve("cgroup");
    Files.createDirectories(cgroups);
    Files.writeString(cgroups.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
    DaemonOptions o = nriOptions("state");
    return o.toBuilder().cgroupMount(cgroups).build();
  }

  private static Config templateConfig() {
    Config c = TestDaemons.config();
    return new Config(
        new PolicyConfig("template", Map.of(), Map.of(), Map.of()),
        c.resourceManager(),
        c.dump(),
        c.logger(),
        c.instrumentation(),
        c.controllerSections());
  }

  private static String get(Daemon daemon, String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + daemon.metricsPort() + path))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return response.body();
  }
}
