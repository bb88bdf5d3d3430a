package io.criresmgr.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.CacheSnapshot;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.HostCpus;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the policy benchmarks share: a policy behind an {@link InProcessPipeline} in a temporary
 * directory, running pods and containers through it, and the two measurements {@link
 * #allocateRelease} and {@link #createAndRemove}.
 */
final class PolicyBench {
  private final Path dir;
  private final PolicyContext context;
  private final String name;
  private final Policy policy;
  private final InProcessPipeline pipeline;

  private PolicyBench(
      Path dir, PolicyProvider<?> provider, PolicyContext context, JsonNode options, Path cache)
      throws IOException {
    this.dir = dir;
    this.context = context;
    this.name = provider.name();
    this.policy = provider.parseAndCreate(context, options);
    this.pipeline = new InProcessPipeline(provider.name(), policy, cache);
  }

  /**
   * The policy of {@code provider} with {@code options} on a fake sysfs of built-in topology {@code
   * spec}, with {@code ReservedResources: {CPU: reservedCpu}}.
   */
  static PolicyBench onFakeSysfs(
      String spec, PolicyProvider<?> provider, String reservedCpu, JsonNode options)
      throws IOException {
    // tmpfs when there is one: a 4096-CPU fake sysfs has about 45,000 files
    Path shm = Path.of("/dev/shm");
    Path dir =
        Files.isDirectory(shm) && Files.isWritable(shm)
            ? Files.createTempDirectory(shm, "crb")
            : Files.createTempDirectory("crb");
    Path root = dir.resolve("host");
    FakeSysfsWriter.write(TopologySpec.builtIn(spec), root);
    PolicyContext context = HostCpus.read(root).context(root, Map.of(), Map.of("CPU", reservedCpu));
    return new PolicyBench(dir, provider, context, options, dir.resolve("cache"));
  }

  /** The policy of {@code provider} with its default options in {@code context}. */
  static PolicyBench of(PolicyProvider<?> provider, PolicyContext context) throws IOException {
    Path dir = Files.createTempDirectory("crb");
    return new PolicyBench(dir, provider, context, JsonNodeFactory.instance.objectNode(), dir);
  }

  /** The policy's context. */
  PolicyContext context() {
    return context;
  }

  /** The pipeline. */
  InProcessPipeline pipeline() {
    return pipeline;
  }

  /** A blocking RuntimeService client of the pipeline. */
  RuntimeServiceBlockingStub stub() {
    return pipeline.stub();
  }

  /** The config of pod {@code pod}, its cgroup parent that of a Guaranteed or Burstable pod. */
  static PodSandboxConfig podConfig(String pod, boolean guaranteed) {
    String qos = guaranteed ? "" : "burstable/";
    return CriRequests.podConfig(pod).toBuilder()
        .setLinux(
            LinuxPodSandboxConfig.newBuilder()
                .setCgroupParent("/kubepods/" + qos + "pod" + pod + "-uid"))
        .build();
  }

  /** Runs pod {@code config} and returns a CreateContainer of its container {@code c0}, 8 MiB. */
  CreateContainerRequest create(PodSandboxConfig config, LinuxContainerResources resources) {
    String podId =
        stub()
            .runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(config).build())
            .getPodSandboxId();
    LinuxContainerResources limited = resources.toBuilder().setMemoryLimitInBytes(8L << 20).build();
    return CriRequests.createContainer(podId, config, "c0", limited);
  }

  /** Creates and starts the container of {@code request}. */
  void run(CreateContainerRequest request) {
    String id = stub().createContainer(request).getContainerId();
    stub().startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
  }

  /** The policy's inputs for allocating and releasing {@code candidate}, from the cache now. */
  PolicyFixture decisions(CreateContainerRequest candidate) {
    return PolicyFixture.of(pipeline.snapshot(), candidate, policy);
  }

  /** The policy's allocate and release decisions of {@code d}, nothing applied. */
  void allocateRelease(PolicyFixture d, Blackhole bh) {
    bh.consume(policy.allocate(d.toAllocate(), d.beforeAllocate()));
    bh.consume(policy.release(d.toRelease(), d.beforeRelease()));
  }

  /**
   * The policy's allocate and release of {@code d}'s container on {@code node}, each applied to it
   * as the pipeline applies decisions (assignments and policy data; no runtime, controllers or
   * cache file): every decision but the first reuses the state the policy produced last, as in a
   * running daemon. Single-threaded, so its allocation per operation is the decisions' own.
   */
  void allocateReleaseApplied(NodeCache node, PolicyFixture d, Blackhole bh) {
    node.putContainer(d.toAllocate());
    apply(node, policy.allocate(d.toAllocate(), node), bh);
    String id = d.toAllocate().cacheId();
    Container stale = node.container(id).orElseThrow().withState(ContainerState.STALE);
    node.putContainer(stale);
    apply(node, policy.release(stale, node), bh);
    node.removeContainer(id);
  }

  private void apply(NodeCache node, Decisions decisions, Blackhole bh) {
    Map<String, Assignment> assignments = new LinkedHashMap<>();
    decisions.updates().forEach(u -> assignments.put(u.cacheId(), u.assignment()));
    node.applyAssignments(assignments, Set.of());
    decisions.policyData().ifPresent(data -> node.setPolicyData(name, data));
    bh.consume(decisions);
  }

  /**
   * The node of {@code d} before and after its allocation is applied (assignments and policy data),
   * the two states the cache saver sees around one decision.
   */
  List<CacheSnapshot> allocationStates(PolicyFixture d) {
    NodeCache node = NodeCache.restore(d.beforeAllocate().snapshot());
    CacheSnapshot before = node.snapshot();
    Decisions decisions = policy.allocate(d.toAllocate(), node);
    Map<String, Assignment> assignments = new LinkedHashMap<>();
    decisions.updates().forEach(u -> assignments.put(u.cacheId(), u.assignment()));
    node.applyAssignments(assignments, Set.of());
    decisions.policyData().ifPresent(data -> node.setPolicyData(name, data));
    return List.of(before, node.snapshot());
  }

  /** Creates and removes {@code candidate} through the whole pipeline; returns its id. */
  String createAndRemove(CreateContainerRequest candidate) {
    String id = stub().createContainer(candidate).getContainerId();
    stub().removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build());
    return id;
  }

  /** Stops the pipeline and deletes the directory (fake sysfs, cache file). */
  void stop() throws IOException {
    pipeline.close();
    RelayBenchmark.deleteTree(dir);
  }
}
