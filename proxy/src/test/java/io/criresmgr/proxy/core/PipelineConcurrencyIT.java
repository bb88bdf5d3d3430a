package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.ContainerStatsRequest;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListImagesRequest;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.NodeState;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.PolicyProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The serialized section under load: it is never held while the runtime answers, methods that are
 * not intercepted never wait for it, and concurrent requests keep the cache consistent.
 */
class PipelineConcurrencyIT {
  @TempDir Path dir;
  private PipelineHarness h;
  private final ExecutorService pool = Executors.newFixedThreadPool(16);

  @BeforeEach
  void start() throws Exception {
    h = new PipelineHarness(dir);
  }

  @AfterEach
  void close() {
    pool.shutdownNow();
    h.close();
  }

  @Test
  void otherMethodsAnswerPromptlyWhileThePipelineIsBusy() throws Exception {
    BlockingPolicyProvider blocking = new BlockingPolicyProvider();
    h.startDaemon(BlockingPolicyProvider.NAME, false, blocking);
    String pod = h.runPod("p");
    String c0 = h.createAndStart(pod, "c0");
    Future<String> stuck = pool.submit(() -> h.create(pod, BlockingPolicyProvider.BLOCKED));
    try {
      assertTrue(blocking.entered.await(5, TimeUnit.SECONDS), "the policy was not asked");
      prompt("Version", () -> h.relay().version(VersionRequest.getDefaultInstance()));
      prompt(
          "ListImages", () -> h.relayImages().listImages(ListImagesRequest.getDefaultInstance()));
      prompt(
          "ContainerStats",
          () ->
              h.relay()
                  .containerStats(ContainerStatsRequest.newBuilder().setContainerId(c0).build()));
      prompt(
          "ListContainers",
          () -> h.relay().listContainers(ListContainersRequest.getDefaultInstance()));
      assertFalse(stuck.isDone(), "the create went past a blocked policy");
    } finally {
      blocking.release.countDown();
    }
    String id = stuck.get(5, TimeUnit.SECONDS);
    assertEquals("1", h.cpuset(id));
    h.awaitCache("the blocked create", c -> PipelineHarness.state(c, id).equals("CREATED"));
  }

  /** {@code call} answers within a second (it would fail at its deadline if it waited). */
  private static void prompt(String what, Supplier<?> call) {
    long start = System.nanoTime();
    var unused = call.get();
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis < 1000, what + " took " + millis + " ms while the pipeline was busy");
  }

  @Test
  void concurrentCreatesWaitForTheRuntimeInParallel() throws Exception {
    h.startDaemon();
    List<String> pods = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      pods.add(h.runPod("pod" + i));
    }
    h.runtime().hooks().setLatency(Duration.ofMillis(50));
    List<String> warmUp = createAll(pods, "warm-up");
    h.runtime().hooks().setLatency(Duration.ZERO);
    for (String id : warmUp) {
      h.remove(id);
    }
    h.runtime().hooks().setLatency(Duration.ofMillis(50));

    long start = System.nanoTime();
    List<String> created = createAll(pods, "app");
    long millis = (System.nanoTime() - start) / 1_000_000;

    assertTrue(millis >= 50, "the runtime latency did not apply: " + millis + " ms");
    assertTrue(millis < 300, "8 creates of 50 ms took " + millis + " ms: the section waited");
    h.runtime().hooks().setLatency(Duration.ZERO);
    Set<String> cpus = new TreeSet<>();
    for (String id : created) {
      cpus.add(h.cpuset(id));
    }
    assertEquals(Set.of("0", "1", "2", "3", "4", "5", "6", "7"), cpus);
  }

  private List<String> createAll(List<String> pods, String name) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<Future<String>> futures = new ArrayList<>();
    for (String pod : pods) {
      futures.add(
          pool.submit(
              () -> {
                go.await();
                return h.create(pod, name);
              }));
    }
    go.countDown();
    List<String> ids = new ArrayList<>();
    for (Future<String> f : futures) {
      ids.add(f.get(10, TimeUnit.SECONDS));
    }
    return ids;
  }

  @Test
  void sixteenThreadsKeepTheInvariants() throws Exception {
    h.startDaemon();
    // -Ditests.operations=5000 -Ditests.seed=... make a soak run of it.
    int operations = Integer.getInteger("itests.operations", 200);
    LifecycleWorkload workload = new LifecycleWorkload(h, 16, operations);
    workload.run(pool);
    assertTrue(workload.unexpected().isEmpty(), workload.unexpected().toString());
    assertEquals(operations, workload.operations(), workload.toString());
    assertTrue(workload.created() > 16, workload.toString());

    h.relay().listContainers(ListContainersRequest.getDefaultInstance());
    PipelineInvariants.awaitHold(h.runtimeChannel(), h.cacheFile(), PipelineHarness.CACHE_WAIT);

    workload.removeAll();
    String pod = h.runPod("final");
    Set<String> cpus = new TreeSet<>();
    for (int i = 0; i < 8; i++) {
      cpus.add(h.cpuset(h.create(pod, "c" + i)));
    }
    assertEquals(Set.of("0", "1", "2", "3", "4", "5", "6", "7"), cpus, "no CPU leaked");
    var e =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.grpc.StatusRuntimeException.class, () -> h.create(pod, "c8"));
    assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    assertTrue(
        e.getStatus().getDescription().contains("no free exclusive CPU for container uid-final:c8"),
        e.getStatus().getDescription());
    PipelineInvariants.awaitHold(h.runtimeChannel(), h.cacheFile(), PipelineHarness.CACHE_WAIT);
    JsonNode cache = h.cache();
    assertEquals(8, cache.path("Containers").size(), cache.toPrettyString());
  }

  /** The exclusive test policy, but allocating container {@value #BLOCKED} waits for a latch. */
  static final class BlockingPolicyProvider implements PolicyProvider<PolicyOptions> {
    static final String NAME = "test-blocking";
    static final String BLOCKED = "blocked";

    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String description() {
      return "Test policy: exclusive CPUs, blocking while allocating container " + BLOCKED;
    }

    @Override
    public PolicyOptions parseOptions(com.fasterxml.jackson.databind.JsonNode section) {
      return PolicyOptions.NONE;
    }

    @Override
    public Policy create(PolicyContext context, PolicyOptions options) {
      Policy exclusive = new ExclusiveCpusTestPolicy(context.onlineCpus());
      return new Policy() {
        @Override
        public Decisions allocate(Container container, NodeState node) {
          if (container.name().equals(BLOCKED)) {
            entered.countDown();
            try {
              release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return exclusive.allocate(container, node);
        }

        @Override
        public Decisions release(Container container, NodeState node) {
          return exclusive.release(container, node);
        }

        @Override
        public Decisions update(Container container, NodeState node) {
          return exclusive.update(container, node);
        }
      };
    }
  }
}
