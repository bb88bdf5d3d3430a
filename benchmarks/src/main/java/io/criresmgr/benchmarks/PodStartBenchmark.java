package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.grpc.unix.Shutdown;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Concurrent pod starts, as kubelet makes them when many pods land on a node at once: {@link #pods}
 * clients each run RunPodSandbox, CreateContainer (one whole CPU) and StartContainer one after the
 * other, all at the same time on one shared channel, against the simulated runtime taking {@link
 * #latencyMillis} per call. Single-shot time of the whole burst, per {@link Route}; the pods are
 * stopped and removed again (latency off) after each burst, outside the measurement.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 5)
@Measurement(iterations = 20)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PodStartBenchmark {
  /** The route under test. */
  @Param({"DIRECT", "CRI_RESMGR"})
  public Route route = Route.DIRECT;

  /** Pods started at once. */
  @Param({"16", "32"})
  public int pods = 16;

  /** The runtime's latency per call. */
  @Param({"50"})
  public int latencyMillis = 50;

  private Path dir = Path.of("");
  private SimBackend sim = new SimBackend();
  private Testbed bed;
  private ExecutorService clients;
  private final List<String> started = new ArrayList<>();
  private int burst;

  /** Starts the route and one client thread per pod. */
  @Setup(Level.Trial)
  public void start() throws Exception {
    dir = Files.createTempDirectory("crb");
    sim = new SimBackend();
    bed = Testbed.start(route, dir, sim, PipelineBenchmark.daemonConfig(false));
    clients = Executors.newFixedThreadPool(pods);
  }

  /** Sets the latency (and forgets recorded requests). */
  @Setup(Level.Iteration)
  public void slowRuntime() {
    sim.forget(Duration.ofMillis(latencyMillis));
  }

  /** Stops and removes the pods of the burst, without latency. */
  @TearDown(Level.Iteration)
  public void removePods() {
    sim.forget(Duration.ZERO);
    RuntimeServiceBlockingStub stub = bed.stub();
    for (String podId : started) {
      stub.stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(podId).build());
      stub.removePodSandbox(RemovePodSandboxRequest.newBuilder().setPodSandboxId(podId).build());
    }
    started.clear();
  }

  /** Stops everything and deletes the temporary directory. */
  @TearDown(Level.Trial)
  public void stop() throws IOException {
    Shutdown.now(Duration.ofSeconds(10), Shutdown.of(clients));
    bed.close();
    RelayBenchmark.deleteTree(dir);
  }

  /** One burst: {@link #pods} pod starts at once; returns when all containers run. */
  @Benchmark
  public List<String> startPods() throws InterruptedException, ExecutionException {
    burst++;
    List<Future<String>> results = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      String name = "b" + burst + "-p" + i;
      results.add(clients.submit(() -> startPod(name)));
    }
    for (Future<String> result : results) {
      started.add(result.get());
    }
    return started;
  }

  /** RunPodSandbox, CreateContainer, StartContainer; returns the pod's id. */
  private String startPod(String name) {
    RuntimeServiceBlockingStub stub = bed.stub();
    PodSandboxConfig pod = CriRequests.podConfig(name);
    String podId = stub.runPodSandbox(CriRequests.runPod(name)).getPodSandboxId();
    var create = CriRequests.createContainer(podId, pod, "app", CriRequests.wholeCpus(1));
    String id = stub.createContainer(create).getContainerId();
    stub.startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
    return podId;
  }
}
