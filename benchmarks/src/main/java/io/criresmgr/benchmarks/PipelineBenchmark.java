package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.ContainerStatusResponse;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.DumpConfig;
import io.criresmgr.testkit.InProcessDaemon;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * An intercepted CreateContainer against a pass-through call, over real Unix sockets to the
 * simulated runtime (in this JVM, no added latency), per {@link Route}: direct, through a bare
 * relay (CreateContainer is then passed through, not intercepted), through the daemon with policy
 * {@code none} (CreateContainer runs through the pipeline; ContainerStatus is relayed raw). Sample
 * time, µs per call, one client.
 *
 * <p>Every measured CreateContainer creates the same container in one pod; the container of the
 * previous invocation is removed before the next one, outside the measurement, so that cache and
 * runtime stay the same size.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PipelineBenchmark {
  /** The route under test. */
  @Param({"DIRECT", "BARE_RELAY", "CRI_RESMGR"})
  public Route route = Route.DIRECT;

  /**
   * Whether the daemon dumps messages with cri-resmgr's default rules (short lines for
   * CreateContainer and RemoveContainer, logged at info); off by default, to measure the pipeline.
   */
  @Param({"false"})
  public boolean dump;

  private Path dir = Path.of("");
  private SimBackend sim = new SimBackend();
  private Testbed bed;
  private RuntimeServiceBlockingStub stub;
  private CreateContainerRequest create;
  private ContainerStatusRequest status;
  private String created = "";

  /** Starts the route with a pod and one container to ask the status of. */
  @Setup(Level.Trial)
  public void start() throws Exception {
    dir = Files.createTempDirectory("crb");
    sim = new SimBackend();
    bed = Testbed.start(route, dir, sim, daemonConfig(dump));
    stub = bed.stub();
    PodSandboxConfig pod = CriRequests.podConfig("bench");
    String podId = stub.runPodSandbox(CriRequests.runPod("bench")).getPodSandboxId();
    String other =
        stub.createContainer(CriRequests.createContainer(podId, pod, "other", CriRequests.shared()))
            .getContainerId();
    status = ContainerStatusRequest.newBuilder().setContainerId(other).build();
    create = CriRequests.createContainer(podId, pod, "measured", CriRequests.shared());
  }

  /** The daemon's defaults, metrics on a free port, the message dump on or off. */
  static Config daemonConfig(boolean dump) {
    Config c = InProcessDaemon.config();
    DumpConfig dumpConfig = new DumpConfig(DumpConfig.DEFAULT_RULES, "", false, !dump);
    return new Config(
        c.policy(),
        c.resourceManager(),
        dumpConfig,
        c.logger(),
        c.instrumentation(),
        c.controllerSections());
  }

  /** The simulated runtime records every request; forget them between iterations. */
  @Setup(Level.Iteration)
  public void forgetRequests() {
    sim.forget(Duration.ZERO);
  }

  /** Removes the container the previous invocation created (not measured). */
  @Setup(Level.Invocation)
  public void removeCreated() {
    if (!created.isEmpty()) {
      stub.removeContainer(RemoveContainerRequest.newBuilder().setContainerId(created).build());
      created = "";
    }
  }

  /** Stops everything and deletes the temporary directory. */
  @TearDown(Level.Trial)
  public void stop() throws IOException {
    bed.close();
    RelayBenchmark.deleteTree(dir);
  }

  /** CreateContainer: intercepted by the daemon, passed through by the bare relay. */
  @Benchmark
  public String createContainer() {
    created = stub.createContainer(create).getContainerId();
    return created;
  }

  /** ContainerStatus: relayed raw by the daemon and by the bare relay. */
  @Benchmark
  public ContainerStatusResponse containerStatus() {
    return stub.containerStatus(status);
  }
}
