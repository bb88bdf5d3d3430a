package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /introspect}, the policy's gauges on {@code /metrics} and reconfiguration of the active
 * policy, through the daemon over real sockets.
 */
class IntrospectionIT {
  @TempDir Path dir;

  @Test
  void showsContainersAssignmentsAndThePolicyView() throws Exception {
    Path host = dir.resolve("host");
    Files.createDirectories(host.resolve("sys/devices/system/cpu"));
    Files.writeString(host.resolve("sys/devices/system/cpu/online"), "0-3\n");
    try (SimRuntimeServer sim =
        new SimRuntimeServer(
                dir.resolve("rt.sock"),
                new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
            .start()) {
      Daemon daemon = Daemon.start(options(sim.socket(), host), new ConfigStore(templateConfig()));
      try (RawClient client = new RawClient(dir.resolve("relay/cri-resmgr.sock"))) {
        createExclusiveContainer(client);
        JsonNode view = new ObjectMapper().readTree(get(daemon, "/introspect"));
        assertEquals("template", view.get("policy").asText());
        JsonNode pod = view.get("pods").get(0);
        assertEquals("pod0", pod.get("name").asText());
        assertEquals("Guaranteed", pod.get("qosClass").asText());
        JsonNode container = pod.get("containers").get(0);
        assertEquals("uid-0:c0", container.get("cacheId").asText());
        assertEquals("created", container.get("state").asText());
        assertEquals(1000, container.get("resources").get("cpuRequestMilli").asLong());
        assertEquals("0", container.get("assignment").get("cpus").asText());
        assertEquals("1-3", view.get("policyView").get("sharedPool").asText());
        assertEquals("0", view.get("policyView").get("exclusive").get("uid-0:c0").asText());
        assertEquals(
            "template: exclusive CPUs 0 (whole CPUs requested, equal to the limit)",
            container.get("why").get("summary").asText());
        assertEquals(0, view.get("refusals").size());
        String metrics = get(daemon, "/metrics");
        assertTrue(metrics.contains("cri_resmgr_template_shared_cpus 3.0"), metrics);
        assertTrue(metrics.contains("cri_resmgr_template_exclusive_cpus 1.0"), metrics);
      } finally {
        daemon.close();
      }
    }
  }

  @Test
  void aRefusedContainerIsListedWithTheReason() throws Exception {
    Path host = dir.resolve("host");
    Files.createDirectories(host.resolve("sys/devices/system/cpu"));
    Files.writeString(host.resolve("sys/devices/system/cpu/online"), "0-3\n");
    try (SimRuntimeServer sim =
        new SimRuntimeServer(
                dir.resolve("rt.sock"),
                new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
            .start()) {
      Daemon daemon = Daemon.start(options(sim.socket(), host), new ConfigStore(templateConfig()));
      try (RawClient client = new RawClient(dir.resolve("relay/cri-resmgr.sock"))) {
        StatusRuntimeException e =
            assertThrows(StatusRuntimeException.class, () -> createExclusiveContainer(client, 5));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
        JsonNode view = new ObjectMapper().readTree(get(daemon, "/introspect"));
        assertEquals(0, view.get("pods").get(0).get("containers").size());
        JsonNode refusal = view.get("refusals").get(0);
        assertEquals("default/pod0/c0", text(refusal, "namespace", "pod", "container"));
        assertEquals(e.getStatus().getDescription(), refusal.get("message").asText());
        assertTrue(
            refusal
                .get("why")
                .get("summary")
                .asText()
                .startsWith("refused: not enough free CPUs for exclusive allocation of 5 CPUs"),
            refusal.toString());
      } finally {
        daemon.close();
      }
    }
  }

  private static String text(JsonNode node, String... fields) {
    return java.util.Arrays.stream(fields)
        .map(f -> node.get(f).asText())
        .collect(java.util.stream.Collectors.joining("/"));
  }

  @Test
  void newOptionsOfTheActivePolicyRebalanceAndBadOnesAreRejected() throws Exception {
    Path host = dir.resolve("host");
    Files.createDirectories(host.resolve("sys/devices/system/cpu"));
    Files.writeString(host.resolve("sys/devices/system/cpu/online"), "0-3\n");
    try (SimRuntimeServer sim =
        new SimRuntimeServer(
                dir.resolve("rt.sock"),
                new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
            .start()) {
      ConfigStore store = new ConfigStore(templateConfig());
      Daemon daemon = Daemon.start(options(sim.socket(), host), store);
      try (RawClient client = new RawClient(dir.resolve("relay/cri-resmgr.sock"))) {
        createExclusiveContainer(client);
        ObjectMapper json = new ObjectMapper();
        Config bad = templateConfig(Map.of("template", json.readTree("{\"ExclusiveCpus\": 3}")));
        ConfigException e = assertThrows(ConfigException.class, () -> store.update(bad));
        assertTrue(e.getMessage().contains("policy.template.ExclusiveCpus"), e.getMessage());
        assertEquals(templateConfig(), store.current());

        store.update(
            templateConfig(Map.of("template", json.readTree("{\"ExclusiveCpus\": false}"))));
        JsonNode view = json.readTree(get(daemon, "/introspect"));
        JsonNode container = view.get("pods").get(0).get("containers").get(0);
        assertEquals("0-3", container.get("assignment").get("cpus").asText());
        assertEquals("0-3", view.get("policyView").get("sharedPool").asText());
      } finally {
        daemon.close();
      }
    }
  }

  private DaemonOptions options(Path runtime, Path host) {
    return TestDaemons.options(dir, runtime, true, host);
  }

  private static Config templateConfig() {
    return templateConfig(Map.of());
  }

  private static Config templateConfig(Map<String, JsonNode> options) {
    Config c = TestDaemons.config();
    return new Config(
        new PolicyConfig("template", Map.of(), Map.of(), options),
        c.resourceManager(),
        c.dump(),
        c.logger(),
        c.instrumentation(),
        c.controllerSections());
  }

  private static void createExclusiveContainer(RawClient client) {
    createExclusiveContainer(client, 1);
  }

  private static void createExclusiveContainer(RawClient client, int cpus) {
    var rt =
        RuntimeServiceGrpc.newBlockingStub(client.channel())
            .withDeadlineAfter(10, TimeUnit.SECONDS);
    PodSandboxConfig pod =
        PodSandboxConfig.newBuilder()
            .setMetadata(
                PodSandboxMetadata.newBuilder()
                    .setName("pod0")
                    .setNamespace("default")
                    .setUid("uid-0"))
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent("/kubepods/poduid-0"))
            .build();
    String podId =
        rt.runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(pod).build())
            .getPodSandboxId();
    LinuxContainerResources oneCpu =
        LinuxContainerResources.newBuilder()
            .setCpuShares(1024L * cpus)
            .setCpuQuota(100000L * cpus)
            .setCpuPeriod(100000)
            .build();
    rt.createContainer(
        CreateContainerRequest.newBuilder()
            .setPodSandboxId(podId)
            .setSandboxConfig(pod)
            .setConfig(
                ContainerConfig.newBuilder()
                    .setMetadata(ContainerMetadata.newBuilder().setName("c0"))
                    .setImage(ImageSpec.newBuilder().setImage("busybox"))
                    .setLinux(LinuxContainerConfig.newBuilder().setResources(oneCpu)))
            .build());
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
