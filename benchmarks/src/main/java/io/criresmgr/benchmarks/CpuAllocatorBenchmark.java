package io.criresmgr.benchmarks;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The CPU allocator (issue 4): {@code allocate} of 1, 4 and 32 CPUs from every CPU of an idle node
 * or from a fragmented set, and the allocator's construction. The topologies are the built-in specs
 * (docs/topology.md), computed in memory without files: {@code n4c16} (16 CPUs, the e2e VM), {@code
 * n8c448} (448 CPUs, 4 packages) and {@code s8c4096} (4096 CPUs, 8 packages).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class CpuAllocatorBenchmark {

  /** The CPUs to allocate from. */
  public enum From {
    /** Every online CPU: whole cores (and packages) are free. */
    IDLE,
    /** Every CPU whose id is not a multiple of 3: many cores are half taken. */
    FRAGMENTED
  }

  /** A topology and its allocator. */
  @State(Scope.Benchmark)
  public static class Node {
    /** Number of CPUs: 16, 448 or 4096. */
    @Param({"16", "448", "4096"})
    public int cpus = 16;

    SystemTopology topology = TopologySpec.builtIn("n4c16").topology();

    /** Builds the topology. */
    @Setup(Level.Trial)
    public void build() {
      String spec =
          switch (cpus) {
            case 16 -> "n4c16";
            case 448 -> "n8c448";
            case 4096 -> "s8c4096";
            default -> throw new IllegalArgumentException("cpus: 16, 448 or 4096, not " + cpus);
          };
      topology = TopologySpec.builtIn(spec).topology();
    }
  }

  /** One allocation request on a node. */
  @State(Scope.Benchmark)
  public static class Request {
    /** Number of CPUs to allocate (clamped to all but one of the set on 16 CPUs). */
    @Param({"1", "4", "32"})
    public int count = 1;

    /** The set to allocate from. */
    @Param({"IDLE", "FRAGMENTED"})
    public From from = From.IDLE;

    CpuAllocator allocator = new CpuAllocator(TopologySpec.builtIn("n4c16").topology());
    CpuSet set = CpuSet.EMPTY;
    int clamped;

    /** Builds the allocator and the set. */
    @Setup(Level.Trial)
    public void prepare(Node node) {
      allocator = new CpuAllocator(node.topology);
      CpuSet online = node.topology.onlineCpus();
      set =
          from == From.IDLE
              ? online
              : CpuSet.of(online.stream().filter(id -> id % 3 != 0).toArray());
      clamped = Math.min(count, set.size() - 1);
    }
  }

  /** One allocation. */
  @Benchmark
  public CpuSet allocate(Request request) {
    return request.allocator.allocate(request.set, request.clamped, CpuPriority.NORMAL);
  }

  /** Building an allocator (priority discovery and the dense topology arrays). */
  @Benchmark
  public CpuAllocator construct(Node node) {
    return new CpuAllocator(node.topology);
  }
}
