package io.criresmgr.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.policy.HostCpus;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.balloons.BalloonsPolicyProvider;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The {@code balloons} policy's allocation and release against container count and topology size,
 * on a generated fake sysfs with {@code ReservedResources: {CPU: 1}} and two balloon types: {@code
 * ns} for namespaces {@code ns-*}, a balloon per namespace of at most {@code MaxCPUs: 4}, and
 * {@code dyn} for namespaces {@code dyn-*}, without {@code MaxCPUs}. Before the run, {@link
 * #containers} Burstable containers of 10m CPU and 8 MiB are created and started through the
 * pipeline, alternately in {@code ns-0..ns-3} and {@code dyn-0}: five balloons in all. The measured
 * container is Burstable with one CPU: in a new namespace of type {@code ns} ({@code
 * PER_NAMESPACE}: a balloon is created for it and deleted after it), or in {@code dyn-0} ({@code
 * DYNAMIC}: the dynamic balloon inflates by one CPU and deflates again). Measured (sample time, µs)
 * as in {@link TopologyAwareBenchmark}: {@link #policyAllocateRelease} and {@link
 * #createAndRemove}.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BalloonsBenchmark {
  /** The balloon type the measured container goes to. */
  public enum Kind {
    /** A new balloon of the per-namespace type with MaxCPUs, deleted on release. */
    PER_NAMESPACE,
    /** The one balloon of the type without MaxCPUs, inflated and deflated. */
    DYNAMIC
  }

  /** {@code policy.balloons}. */
  static final String OPTIONS =
      """
      {"BalloonTypes": [
        {"Name": "ns", "Namespaces": ["ns-*"], "MaxCPUs": 4, "PreferPerNamespaceBalloon": true},
        {"Name": "dyn", "Namespaces": ["dyn-*"]}]}
      """;

  private static final int FILL_NAMESPACES = 4;

  /** The node's CPU count, a key of {@link TopologyAwareBenchmark#TOPOLOGIES}. */
  @Param({"16", "448", "4096"})
  public String cpus = "448";

  /** Containers in the cache besides the measured one. */
  @Param({"10", "100", "500"})
  public int containers = 100;

  /** Where the measured container goes. */
  @Param({"PER_NAMESPACE", "DYNAMIC"})
  public Kind kind = Kind.PER_NAMESPACE;

  private Path dir = Path.of("");
  private InProcessPipeline pipeline;
  private RuntimeServiceBlockingStub stub;
  private CreateContainerRequest candidate;
  private Policy policy;
  private PolicyFixture decisions;

  /** Generates the topology, builds the pipeline and fills the cache through it. */
  @Setup(Level.Trial)
  public void start() throws IOException {
    Path shm = Path.of("/dev/shm");
    dir =
        Files.isDirectory(shm) && Files.isWritable(shm)
            ? Files.createTempDirectory(shm, "crb")
            : Files.createTempDirectory("crb");
    Path root = dir.resolve("host");
    FakeSysfsWriter.write(TopologySpec.builtIn(TopologyAwareBenchmark.TOPOLOGIES.get(cpus)), root);
    PolicyProvider provider = new BalloonsPolicyProvider();
    PolicyContext context = HostCpus.read(root).context(root, Map.of(), Map.of("CPU", "1"));
    JsonNode options = new ObjectMapper().readTree(OPTIONS);
    policy = provider.create(context, provider.parseOptions(options));
    pipeline = new InProcessPipeline(provider.name(), policy, dir.resolve("cache"));
    stub = pipeline.stub();
    LinuxContainerResources small = CriRequests.shared().toBuilder().setCpuShares(10).build();
    for (int i = 0; i < containers; i++) {
      String ns = i % 2 == 0 ? "ns-" + (i / 2) % FILL_NAMESPACES : "dyn-0";
      run("pod-" + i, ns, small);
    }
    String ns = kind == Kind.PER_NAMESPACE ? "ns-candidate" : "dyn-0";
    LinuxContainerResources one = CriRequests.shared().toBuilder().setCpuShares(1024).build();
    candidate = create("candidate", ns, one);
    decisions = PolicyFixture.of(pipeline.snapshot(), candidate, policy);
  }

  private void run(String pod, String namespace, LinuxContainerResources resources) {
    String id = stub.createContainer(create(pod, namespace, resources)).getContainerId();
    stub.startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
  }

  /** Runs Burstable pod {@code pod} and returns a CreateContainer of its container, 8 MiB. */
  private CreateContainerRequest create(
      String pod, String namespace, LinuxContainerResources resources) {
    PodSandboxConfig base = CriRequests.podConfig(pod);
    PodSandboxConfig config =
        base.toBuilder()
            .setMetadata(base.getMetadata().toBuilder().setNamespace(namespace))
            .setLinux(
                LinuxPodSandboxConfig.newBuilder()
                    .setCgroupParent("/kubepods/burstable/pod" + pod + "-uid"))
            .build();
    String podId =
        stub.runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(config).build())
            .getPodSandboxId();
    LinuxContainerResources limited = resources.toBuilder().setMemoryLimitInBytes(8L << 20).build();
    return CriRequests.createContainer(podId, config, "c0", limited);
  }

  /** Stops the pipeline and deletes the fake sysfs and the cache file. */
  @TearDown(Level.Trial)
  public void stop() throws IOException, InterruptedException {
    pipeline.close();
    RelayBenchmark.deleteTree(dir);
  }

  /** The policy's allocate and release decisions for the same container, nothing applied. */
  @Benchmark
  public void policyAllocateRelease(Blackhole bh) {
    bh.consume(policy.allocate(decisions.toAllocate(), decisions.beforeAllocate()));
    bh.consume(policy.release(decisions.toRelease(), decisions.beforeRelease()));
  }

  /** One allocation and one release through the whole pipeline, the runtime answering at once. */
  @Benchmark
  public String createAndRemove() {
    String id = stub.createContainer(candidate).getContainerId();
    stub.removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build());
    return id;
  }
}
