package io.criresmgr.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cache saver's encoding of a snapshot: {@code SnapshotJson.encode} (streaming generator)
 * against the databind path it replaced, warmed up ({@code encode}) and as the first call in a
 * fresh JVM ({@code firstEncode}, what the daemon's first save pays). In this package because the
 * encoder is package-private.
 */
@State(Scope.Benchmark)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class SnapshotEncodeBenchmark {
  /** Which encoder runs. */
  public enum Encoder {
    STREAMING,
    DATABIND
  }

  /** Containers in the snapshot, two per pod. */
  @Param({"500"})
  public int containers = 500;

  /** The encoder measured. */
  @Param({"STREAMING", "DATABIND"})
  public Encoder encoder = Encoder.STREAMING;

  private CacheSnapshot snapshot;

  /**
   * A snapshot of {@code containers} containers, two per pod, with a policy's allocations. Reads a
   * file first, as the daemon's start does before its first save, so that {@code firstEncode}
   * counts the encoder, not the building of the mapper they share.
   */
  @Setup
  public void setUp() {
    try {
      SnapshotJson.decode("{}".getBytes(StandardCharsets.UTF_8));
      throw new IllegalStateException("a file without a version was restored");
    } catch (SnapshotJson.UnusableException expected) {
      // the mapper is built and has read a tree
    }
    snapshot = snapshot(containers);
  }

  /**
   * A snapshot of {@code containers} containers, two per pod, with a policy's allocations (also
   * {@code CacheSaveBenchmark}'s).
   */
  static CacheSnapshot snapshot(int containers) {
    Map<String, Pod> pods = new HashMap<>();
    Map<String, Container> cached = new HashMap<>();
    ObjectNode allocations = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < containers; i++) {
      Pod pod = pod(i / 2);
      pods.put(pod.id(), pod);
      Container c = container(pod, i);
      cached.put(c.cacheId(), c);
      allocations.putObject(c.cacheId()).put("cpus", c.assignment().cpus().toString());
    }
    Map<String, JsonNode> policyData = Map.of("topology-aware", allocations);
    return new CacheSnapshot(
        CacheSnapshot.VERSION,
        pods,
        cached,
        containers,
        "topology-aware",
        policyData,
        Optional.of("policy:\n  Active: topology-aware\n"));
  }

  /** One encoding, warmed up. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @Warmup(iterations = 3, time = 1)
  @Measurement(iterations = 3, time = 1)
  public byte[] encode() throws Exception {
    return encodeOnce();
  }

  /** The first encoding in a fresh JVM, class loading and serializer building included. */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Fork(5)
  @Warmup(iterations = 0)
  @Measurement(iterations = 1)
  public byte[] firstEncode() throws Exception {
    return encodeOnce();
  }

  private byte[] encodeOnce() throws Exception {
    return encoder == Encoder.STREAMING
        ? SnapshotJson.encode(snapshot)
        : SnapshotJson.encodeWithDatabind(snapshot);
  }

  private static Pod pod(int n) {
    String uid = "0f4c6a2e-5b1d-4e8f-9a3c-" + String.format("%012d", n);
    return new Pod(
        "sandbox-" + n,
        uid,
        "web-" + n,
        "default",
        Map.of("app", "web", "io.kubernetes.pod.uid", uid),
        Map.of("kubernetes.io/config.source", "api"),
        "/kubepods/burstable/pod" + uid,
        QosClass.BURSTABLE,
        new PodResources(
            Map.of(),
            Map.of(
                "app", new Resources(500, 1000, 64 << 20, 128 << 20),
                "sidecar", new Resources(100, 100, 16 << 20, 16 << 20))),
        true);
  }

  static Container container(Pod pod, int n) {
    String name = n % 2 == 0 ? "app" : "sidecar";
    return Container.builder()
        .cacheId(Container.cacheId(pod.uid(), name))
        .id(String.format("%064x", n))
        .podId(pod.id())
        .name(name)
        .namespace("default")
        .labels(Map.of("io.kubernetes.container.name", name, "io.kubernetes.pod.uid", pod.uid()))
        .annotations(Map.of("io.kubernetes.container.restartCount", "0"))
        .image("docker.io/library/nginx:1.27")
        .state(ContainerState.RUNNING)
        .requested(
            new LinuxResources(
                100000, 100000, 512, 128 << 20, "", "", Map.of("memory.high", "max")))
        .resources(new Resources(500, 1000, 64 << 20, 128 << 20))
        .qosClass(QosClass.BURSTABLE)
        .assignment(
            new Assignment(
                CpuSet.of(n % 64, (n + 1) % 64),
                CpuSet.of(n % 2),
                512,
                100000,
                100000,
                128 << 20,
                Map.of(),
                "",
                ""))
        .pending(Set.of())
        .seq(n)
        .build();
  }
}
