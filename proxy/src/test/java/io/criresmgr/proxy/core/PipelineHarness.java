package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.none.NonePolicyProvider;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A real daemon over real Unix sockets in front of the simulated runtime, for the pipeline's
 * integration tests: 8 fake online CPUs, kubelet-style calls through the relay, direct calls to the
 * runtime, and the cache file as JSON.
 */
final class PipelineHarness implements AutoCloseable {
  static final String IMAGE = "docker.io/library/busybox:latest";
  static final Duration CACHE_WAIT = Duration.ofSeconds(5);

  private final Path dir;
  private final SimRuntimeServer sim;
  private final RawClient simClient;
  private final Map<String, PodSandboxConfig> pods = new ConcurrentHashMap<>();
  private final AtomicInteger barriers = new AtomicInteger();
  private @Nullable Daemon daemon;
  private @Nullable RawClient relayClient;

  /** Starts the simulated runtime in {@code dir}; the daemon is started separately. */
  PipelineHarness(Path dir) throws IOException {
    this(dir, Path.of("/"));
  }

  /** As above, the runtime finding the devices of containers below {@code hostRoot}. */
  PipelineHarness(Path dir, Path hostRoot) throws IOException {
    this.dir = dir;
    Path online = dir.resolve("host/sys/devices/system/cpu/online");
    Files.createDirectories(online.getParent());
    Files.writeString(online, "0-7\n");
    SimRuntime runtime =
        new SimRuntime(
            SimOptions.defaults()
                .withRuntimeName("containerd")
                .withImages(List.of(IMAGE))
                .withHostRoot(hostRoot));
    sim = new SimRuntimeServer(dir.resolve("runtime/containerd.sock"), runtime).start();
    simClient = new RawClient(sim.socket());
  }

  /** The simulated runtime. */
  SimRuntime runtime() {
    return sim.runtime();
  }

  /** The daemon's relay socket. */
  Path relaySocket() {
    return dir.resolve("relay/cri-resmgr.sock");
  }

  /** The daemon's relay directory. */
  Path relayDir() {
    return dir.resolve("state");
  }

  /** The cache file. */
  Path cacheFile() {
    return relayDir().resolve("cache");
  }

  /** Options of the daemon under test. */
  DaemonOptions options(boolean disablePolicySwitch) {
    // No cgroups under the fake host: host controllers stay off the real /sys/fs/cgroup.
    return options(disablePolicySwitch, dir.resolve("host/sys/fs/cgroup"));
  }

  /** Options of the daemon under test with cgroups mounted at {@code cgroupMount}. */
  DaemonOptions options(boolean disablePolicySwitch, Path cgroupMount) {
    return options(dir.resolve("host"), cgroupMount, disablePolicySwitch);
  }

  /** Options of the daemon under test on the fake host {@code hostRoot} (its own cgroups). */
  DaemonOptions optionsOnHost(Path hostRoot) {
    return options(hostRoot, hostRoot.resolve("sys/fs/cgroup"), false);
  }

  private DaemonOptions options(Path hostRoot, Path cgroupMount, boolean disablePolicySwitch) {
    return DaemonOptions.builder()
        .runtimeSocket(sim.socket())
        .relaySocket(relaySocket())
        .relayDir(relayDir())
        .hostRoot(hostRoot)
        .cgroupMount(cgroupMount)
        .pidFile(dir.resolve("cri-resmgr.pid"))
        .disablePolicySwitch(disablePolicySwitch)
        .build();
  }

  /** The test configuration with {@code policy.Active: policy}. */
  static Config config(String policy) {
    return config(new PolicyConfig(policy, Map.of(), Map.of(), Map.of()));
  }

  /** The test configuration with the policy section {@code policy}. */
  static Config config(PolicyConfig policy) {
    Config base = TestDaemons.config();
    return new Config(
        policy,
        base.resourceManager(),
        base.dump(),
        base.logger(),
        base.instrumentation(),
        base.controllerSections());
  }

  /** none, test-exclusive and {@code extra}. */
  static PolicyRegistry registry(PolicyProvider<?>... extra) {
    List<PolicyProvider<?>> all = new ArrayList<>();
    all.add(new NonePolicyProvider());
    all.add(new ExclusiveCpusTestPolicyProvider());
    all.addAll(List.of(extra));
    return new PolicyRegistry(all);
  }

  /** Starts the daemon with the exclusive test policy. */
  void startDaemon() throws InterruptedException {
    startDaemon(ExclusiveCpusTestPolicyProvider.NAME, false);
  }

  /** Starts the daemon with {@code policy} active, registering {@code extra} policies too. */
  void startDaemon(String policy, boolean disablePolicySwitch, PolicyProvider<?>... extra)
      throws InterruptedException {
    startDaemon(options(disablePolicySwitch), config(policy), extra);
  }

  /** Starts the daemon with {@code options} and {@code config}, registering {@code extra} too. */
  void startDaemon(DaemonOptions options, Config config, PolicyProvider<?>... extra)
      throws InterruptedException {
    daemon = Daemon.start(options, new ConfigStore(config), registry(extra));
    relayClient = new RawClient(relaySocket());
  }

  /** Stops the daemon (it saves the cache on the way out). */
  void stopDaemon() {
    if (relayClient != null) {
      relayClient.close();
      relayClient = null;
    }
    if (daemon != null) {
      daemon.close();
      daemon = null;
    }
  }

  /** A stub calling through the daemon, as kubelet does. */
  RuntimeServiceGrpc.RuntimeServiceBlockingStub relay() {
    if (relayClient == null) {
      throw new IllegalStateException("the daemon is not running");
    }
    return RuntimeServiceGrpc.newBlockingStub(relayClient.channel())
        .withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  /** The channel through the daemon, for calls with raw bytes. */
  io.grpc.Channel relayChannel() {
    if (relayClient == null) {
      throw new IllegalStateException("the daemon is not running");
    }
    return relayClient.channel();
  }

  /** An image service stub calling through the daemon. */
  ImageServiceGrpc.ImageServiceBlockingStub relayImages() {
    if (relayClient == null) {
      throw new IllegalStateException("the daemon is not running");
    }
    return ImageServiceGrpc.newBlockingStub(relayClient.channel())
        .withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  /** A stub calling the runtime directly, behind the daemon's back. */
  RuntimeServiceGrpc.RuntimeServiceBlockingStub direct() {
    return RuntimeServiceGrpc.newBlockingStub(simClient.channel())
        .withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  /** The channel to the runtime, for {@link PipelineInvariants}. */
  io.grpc.Channel runtimeChannel() {
    return simClient.channel();
  }

  /** A pod sandbox configuration named {@code name} with UID {@code uid}. */
  static PodSandboxConfig podConfig(String name, String uid, int attempt) {
    return PodSandboxConfig.newBuilder()
        .setMetadata(
            PodSandboxMetadata.newBuilder()
                .setName(name)
                .setNamespace("default")
                .setUid(uid)
                .setAttempt(attempt))
        .build();
  }

  /** Runs pod {@code name} (UID {@code uid-<name>}) through the daemon; returns its id. */
  String runPod(String name) {
    return runPod(podConfig(name, "uid-" + name, 0), relay());
  }

  /** Runs a pod with {@code config} through {@code stub}; returns its id. */
  String runPod(PodSandboxConfig config, RuntimeServiceGrpc.RuntimeServiceBlockingStub stub) {
    String id =
        stub.runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(config).build())
            .getPodSandboxId();
    pods.put(id, config);
    return id;
  }

  /** A CreateContainer request for container {@code name} in pod {@code podId}. */
  CreateContainerRequest createRequest(String podId, String name, int attempt) {
    LinuxContainerResources resources =
        LinuxContainerResources.newBuilder()
            .setCpuShares(1024)
            .setCpuPeriod(100_000)
            .setCpuQuota(100_000)
            .setMemoryLimitInBytes(128L << 20)
            .build();
    ContainerConfig config =
        ContainerConfig.newBuilder()
            .setMetadata(ContainerMetadata.newBuilder().setName(name).setAttempt(attempt))
            .setImage(ImageSpec.newBuilder().setImage(IMAGE))
            .addCommand("sleep")
            .setLinux(LinuxContainerConfig.newBuilder().setResources(resources))
            .build();
    PodSandboxConfig pod = pods.get(podId);
    if (pod == null) {
      throw new IllegalArgumentException("unknown pod " + podId);
    }
    return CreateContainerRequest.newBuilder()
        .setPodSandboxId(podId)
        .setConfig(config)
        .setSandboxConfig(pod)
        .build();
  }

  /** Creates container {@code name} through the daemon; returns its id. */
  String create(String podId, String name) {
    return create(podId, name, 0);
  }

  /** Creates container {@code name} (attempt {@code attempt}) through the daemon. */
  String create(String podId, String name, int attempt) {
    return relay().createContainer(createRequest(podId, name, attempt)).getContainerId();
  }

  /** Creates and starts container {@code name} through the daemon; returns its id. */
  String createAndStart(String podId, String name) {
    String id = create(podId, name);
    start(id);
    return id;
  }

  /**
   * Creates and starts container {@code name} with {@code resources} through the daemon in a pod
   * run with {@code sandbox} (not necessarily one of {@link #runPod}'s); returns its id.
   */
  String createAndStart(
      String podId, PodSandboxConfig sandbox, String name, LinuxContainerResources resources) {
    String id = create(podId, sandbox, name, resources);
    start(id);
    return id;
  }

  /**
   * Creates container {@code name} with {@code resources} through the daemon in a pod run with
   * {@code sandbox}; returns its id.
   */
  String create(
      String podId, PodSandboxConfig sandbox, String name, LinuxContainerResources resources) {
    ContainerConfig config =
        ContainerConfig.newBuilder()
            .setMetadata(ContainerMetadata.newBuilder().setName(name))
            .setImage(ImageSpec.newBuilder().setImage(IMAGE))
            .addCommand("sleep")
            .setLinux(LinuxContainerConfig.newBuilder().setResources(resources))
            .build();
    String id =
        relay()
            .createContainer(
                CreateContainerRequest.newBuilder()
                    .setPodSandboxId(podId)
                    .setConfig(config)
                    .setSandboxConfig(sandbox)
                    .build())
            .getContainerId();
    return id;
  }

  void start(String id) {
    relay().startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
  }

  void stop(String id) {
    relay()
        .stopContainer(StopContainerRequest.newBuilder().setContainerId(id).setTimeout(10).build());
  }

  void remove(String id) {
    relay().removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build());
  }

  /** The cpuset the runtime applies to container {@code id}. */
  String cpuset(String id) {
    return direct()
        .containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build())
        .getStatus()
        .getResources()
        .getLinux()
        .getCpusetCpus();
  }

  /** Waits until the runtime applies {@code expected} as the cpuset of container {@code id}. */
  void awaitCpuset(String id, String expected) throws InterruptedException {
    long deadline = System.nanoTime() + CACHE_WAIT.toNanos();
    String seen = cpuset(id);
    while (!seen.equals(expected)) {
      if (System.nanoTime() > deadline) {
        fail("container " + id + " has cpuset \"" + seen + "\", expected \"" + expected + "\"");
      }
      Thread.sleep(20);
      seen = cpuset(id);
    }
  }

  /** Creates container {@code name} directly in the runtime, behind the daemon's back. */
  String createDirectly(String podId, String name) {
    return direct().createContainer(createRequest(podId, name, 0)).getContainerId();
  }

  /** Starts container {@code id} directly in the runtime. */
  void startDirectly(String id) {
    direct().startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
  }

  /** The cache file as JSON; a missing node if there is no file yet. */
  JsonNode cache() {
    return readCache(cacheFile());
  }

  /**
   * The cache file at {@code file} with its journal replayed, as JSON; a missing node if there is
   * none or it cannot be read.
   */
  static JsonNode readCache(Path file) {
    return CacheFile.current(file.getParent()).orElse(MissingNode.getInstance());
  }

  /** Waits until the cache file satisfies {@code condition}; returns it. */
  JsonNode awaitCache(String what, Predicate<JsonNode> condition) throws InterruptedException {
    long deadline = System.nanoTime() + CACHE_WAIT.toNanos();
    JsonNode cache = cache();
    while (!condition.test(cache)) {
      if (System.nanoTime() > deadline) {
        fail("the cache file never showed " + what + "; it is " + cache.toPrettyString());
      }
      Thread.sleep(20);
      cache = cache();
    }
    return cache;
  }

  /** The cached container with runtime id {@code id}, or a missing node. */
  static JsonNode containerById(JsonNode cache, String id) {
    for (JsonNode c : cache.path("Containers")) {
      if (c.path("ID").asText().equals(id)) {
        return c;
      }
    }
    return MissingNode.getInstance();
  }

  /** The state of the cached container with runtime id {@code id}, or "" if it is not cached. */
  static String state(JsonNode cache, String id) {
    return containerById(cache, id).path("State").asText("");
  }

  /** The CPUs assigned to the cached container with runtime id {@code id}. */
  static String cpus(JsonNode cache, String id) {
    return containerById(cache, id).path("Assignment").path("CPUs").asText("");
  }

  /**
   * Runs a pod through the daemon and waits until the cache file shows it: every pipeline step
   * submitted before has then run and been saved.
   */
  JsonNode barrier() throws InterruptedException {
    String name = "barrier-" + barriers.incrementAndGet();
    String id = runPod(name);
    return awaitCache("barrier pod " + name, c -> c.path("Pods").has(id));
  }

  @Override
  public void close() {
    stopDaemon();
    simClient.close();
    sim.close();
  }
}
