package io.criresmgr.proxy.core;

import static io.criresmgr.proxy.core.PipelineHarness.cpus;
import static io.criresmgr.proxy.core.PipelineHarness.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.proxy.config.ConfigException;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restarts of the daemon over a runtime that changed meanwhile: the runtime is the truth, the cache
 * keeps what still matches, a corrupt cache file never stops the start, and a policy switch is
 * refused only under {@code --disable-policy-switch}.
 */
class PipelineRestartIT {
  private static final String EXCLUSIVE = ExclusiveCpusTestPolicyProvider.NAME;

  @TempDir Path dir;
  private PipelineHarness h;

  @BeforeEach
  void start() throws Exception {
    h = new PipelineHarness(dir);
  }

  @AfterEach
  void close() {
    h.close();
  }

  @Test
  void aRestartReleasesVanishedAdoptsUnknownAndKeepsKnownContainers() throws Exception {
    h.startDaemon();
    String pod = h.runPod("web");
    String c0 = h.createAndStart(pod, "c0");
    String c1 = h.createAndStart(pod, "c1");
    String c2 = h.createAndStart(pod, "c2");
    h.awaitCache("three running", c -> state(c, c2).equals("RUNNING"));
    h.stopDaemon();

    h.direct().removeContainer(RemoveContainerRequest.newBuilder().setContainerId(c1).build());
    String x = h.createDirectly(pod, "x");
    h.startDirectly(x);
    h.runtime().hooks().reset();
    h.startDaemon();

    JsonNode cache = h.awaitCache("x adopted", c -> state(c, x).equals("RUNNING"));
    assertEquals("", state(cache, c1), "the vanished container is released");
    assertEquals(List.of("0", "2", "1"), List.of(cpus(cache, c0), cpus(cache, c2), cpus(cache, x)));
    h.awaitCpuset(x, "1");
    assertEquals(List.of("0", "2"), List.of(h.cpuset(c0), h.cpuset(c2)));
    List<String> updated =
        h
            .runtime()
            .hooks()
            .requests("UpdateContainerResources", UpdateContainerResourcesRequest.class)
            .stream()
            .map(UpdateContainerResourcesRequest::getContainerId)
            .toList();
    assertEquals(List.of(x), updated, "known containers keep their CPUs without updates");
    assertEquals("3", h.cpuset(h.create(pod, "c3")));
    PipelineInvariants.awaitHold(h.runtimeChannel(), h.cacheFile(), PipelineHarness.CACHE_WAIT);
  }

  @Test
  void aContainerVanishingBetweenTheListingAndItsStatusDoesNotStopTheStart() throws Exception {
    h.startDaemon();
    String pod = h.runPod("web");
    h.stopDaemon();
    String x = h.createDirectly(pod, "x");
    h.startDirectly(x);
    h.runtime().hooks().failNext("ContainerStatus", Status.NOT_FOUND.withDescription("gone"));

    h.startDaemon();

    JsonNode cache = h.awaitCache("pod known", c -> c.get("Pods").size() == 1);
    assertEquals("", state(cache, x), "the container whose status vanished is not adopted");
    String c0 = h.createAndStart(pod, "c0");
    assertEquals("0", h.cpuset(c0));
  }

  @Test
  void aStoppedContainerTheRuntimeStillHoldsAsCreatedIsAllocatedAfreshOnRestart() throws Exception {
    h.startDaemon();
    String pod = h.runPod("web");
    String stopped = h.create(pod, "stopped");
    h.stop(stopped); // a created container does not stop: the runtime keeps it created
    String c1 = h.createAndStart(pod, "c1");
    assertEquals(List.of("0", "0"), List.of(h.cpuset(stopped), h.cpuset(c1)));
    h.awaitCache("stopped exited", c -> state(c, stopped).equals("EXITED"));
    h.stopDaemon();

    h.startDaemon();

    JsonNode cache =
        h.awaitCache("stopped created again", c -> state(c, stopped).equals("CREATED"));
    assertEquals(List.of("0", "1"), List.of(cpus(cache, c1), cpus(cache, stopped)));
    h.awaitCpuset(stopped, "1");
    assertEquals("0", h.cpuset(c1));
    PipelineInvariants.awaitHold(h.runtimeChannel(), h.cacheFile(), PipelineHarness.CACHE_WAIT);
  }

  @Test
  void aCorruptCacheFileIsMovedAsideAndTheRuntimesContainersAreAdopted() throws Exception {
    Files.createDirectories(h.relayDir());
    Files.writeString(h.cacheFile(), "{not json");
    String pod = h.runPod(PipelineHarness.podConfig("web", "uid-web", 0), h.direct());
    String a = h.createDirectly(pod, "a");
    h.startDirectly(a);
    String b = h.createDirectly(pod, "b");

    h.startDaemon();

    List<Path> corrupt = corruptFiles();
    assertEquals(1, corrupt.size(), corrupt.toString());
    assertEquals("{not json", Files.readString(corrupt.get(0)));
    JsonNode cache =
        h.awaitCache(
            "the runtime's containers",
            c -> state(c, a).equals("RUNNING") && state(c, b).equals("CREATED"));
    assertEquals("uid-web", cache.path("Pods").path(pod).path("UID").asText());
    assertEquals(List.of("0", "1"), List.of(cpus(cache, a), cpus(cache, b)));
    h.awaitCpuset(a, "0");
    h.awaitCpuset(b, "1");
    PipelineInvariants.awaitHold(h.runtimeChannel(), h.cacheFile(), PipelineHarness.CACHE_WAIT);
  }

  private List<Path> corruptFiles() throws IOException {
    try (Stream<Path> files = Files.list(h.relayDir())) {
      return files.filter(p -> p.getFileName().toString().startsWith("cache.corrupt-")).toList();
    }
  }

  @Test
  void disablePolicySwitchRefusesAnotherPolicyAndWithoutItTheNewPolicyAllocatesAfresh()
      throws Exception {
    h.startDaemon("none", false);
    String pod = h.runPod("web");
    String a = h.createAndStart(pod, "a");
    String b = h.createAndStart(pod, "b");
    h.awaitCache(
        "policy none with two containers",
        c -> c.path("PolicyName").asText().equals("none") && state(c, b).equals("RUNNING"));
    assertEquals(List.of("", ""), List.of(h.cpuset(a), h.cpuset(b)));
    h.stopDaemon();
    String recorded = Files.readString(h.cacheFile());

    ConfigException e = assertThrows(ConfigException.class, () -> h.startDaemon(EXCLUSIVE, true));
    assertEquals(
        "the cache records policy none but policy.Active is test-exclusive and"
            + " --disable-policy-switch forbids switching; set policy.Active: none or run"
            + " cri-resmgr --reset-policy",
        e.getMessage());
    assertEquals(recorded, Files.readString(h.cacheFile()), "a refused start leaves the cache");

    h.startDaemon(EXCLUSIVE, false);
    JsonNode cache =
        h.awaitCache(
            "the new policy's assignments",
            c -> c.path("PolicyName").asText().equals(EXCLUSIVE) && cpus(c, b).equals("1"));
    assertEquals("0", cpus(cache, a));
    h.awaitCpuset(a, "0");
    h.awaitCpuset(b, "1");
    h.stopDaemon();

    h.startDaemon(EXCLUSIVE, true);
    assertEquals(List.of("0", "1"), List.of(h.cpuset(a), h.cpuset(b)));
    PipelineInvariants.awaitHold(h.runtimeChannel(), h.cacheFile(), PipelineHarness.CACHE_WAIT);
  }
}
