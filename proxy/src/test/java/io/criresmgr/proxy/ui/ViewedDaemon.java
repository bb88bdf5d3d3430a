package io.criresmgr.proxy.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A daemon with {@code policy} on a fake host, by default of 2 NUMA nodes of 4 CPUs (CPU 0
 * reserved), in front of the simulated runtime, with a CRI client on its relay socket and its HTTP
 * endpoint on a free loopback port.
 */
final class ViewedDaemon implements AutoCloseable {
  private final SimRuntimeServer sim;
  private final Daemon daemon;
  private final RawClient client;
  private final RuntimeServiceGrpc.RuntimeServiceBlockingStub rt;

  ViewedDaemon(Path dir, String policy) throws Exception {
    this(dir, policy, TopologySpec.parse("[{mem: 2G, cores: 2, nodes: 2}]"));
  }

  /** A daemon with {@code policy} on a fake host of {@code spec}. */
  ViewedDaemon(Path dir, String policy, TopologySpec spec) throws Exception {
    Path host = dir.resolve("host");
    FakeSysfsWriter.write(spec, host);
    sim =
        new SimRuntimeServer(
                dir.resolve("rt.sock"),
                new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
            .start();
    daemon = Daemon.start(options(dir, host), new ConfigStore(config(policy)));
    client = new RawClient(dir.resolve("relay/cri-resmgr.sock"));
    rt = RuntimeServiceGrpc.newBlockingStub(client.channel());
  }

  /** Runs pod {@code pod} (uid {@code uid-<pod>}) with a Guaranteed container {@code c0}. */
  String createContainer(String pod, int cpus) {
    PodSandboxConfig config =
        PodSandboxConfig.newBuilder()
            .setMetadata(
                PodSandboxMetadata.newBuilder()
                    .setName(pod)
                    .setNamespace("default")
                    .setUid("uid-" + pod))
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent("/kubepods/poduid-" + pod))
            .build();
    String podId =
        stub()
            .runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(config).build())
            .getPodSandboxId();
    LinuxContainerResources resources =
        LinuxContainerResources.newBuilder()
            .setCpuShares(1024L * cpus)
            .setCpuQuota(100000L * cpus)
            .setCpuPeriod(100000)
            .setMemoryLimitInBytes(256L << 20)
            .build();
    return stub()
        .createContainer(
            CreateContainerRequest.newBuilder()
                .setPodSandboxId(podId)
                .setSandboxConfig(config)
                .setConfig(
                    ContainerConfig.newBuilder()
                        .setMetadata(ContainerMetadata.newBuilder().setName("c0"))
                        .setImage(ImageSpec.newBuilder().setImage("busybox"))
                        .setLinux(LinuxContainerConfig.newBuilder().setResources(resources)))
                .build())
        .getContainerId();
  }

  void removeContainer(String id) {
    stub().removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build());
  }

  private RuntimeServiceGrpc.RuntimeServiceBlockingStub stub() {
    return rt.withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  /** The model at {@code /ui/node.json}. */
  JsonNode model() throws Exception {
    return new ObjectMapper().readTree(get("/ui/node.json"));
  }

  /** The container {@code cacheId} of the model; fails if it is missing. */
  static JsonNode container(JsonNode model, String cacheId) {
    for (JsonNode pod : model.get("pods")) {
      for (JsonNode c : pod.get("containers")) {
        if (c.get("cacheId").asText().equals(cacheId)) {
          return c;
        }
      }
    }
    throw new AssertionError(cacheId + " is not in the model: " + model);
  }

  /** {@code path}'s page; fails unless it is served with 200. */
  String get(String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url(path))).build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return response.body();
  }

  String url(String path) {
    return "http://127.0.0.1:" + daemon.metricsPort() + path;
  }

  @Override
  public void close() {
    client.close();
    daemon.close();
    sim.close();
  }

  private static DaemonOptions options(Path dir, Path host) {
    return TestDaemons.options(dir, dir.resolve("rt.sock"), true, host);
  }

  private static Config config(String policy) {
    Config c = TestDaemons.config();
    return new Config(
        new PolicyConfig(policy, Map.of(), Map.of("CPU", "cpuset:0"), Map.of()),
        c.resourceManager(),
        c.dump(),
        c.logger(),
        c.instrumentation(),
        c.controllerSections());
  }
}
