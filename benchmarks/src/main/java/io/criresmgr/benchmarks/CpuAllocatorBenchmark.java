package io.criresmgr.benchmarks;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.CpuFrequency;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The CPU allocator (issue 4) on topologies built in memory: {@code allocate} of 1, 4 and 32 CPUs
 * from every CPU of an idle node or from a fragmented set, and the allocator's construction. The
 * topologies are the e2e VM n4c16 (16 CPUs), 2 × 4 NUMA nodes × 28 cores × 2 threads (448) and 8 ×
 * 4 × 64 × 2 (4096).
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

    SystemTopology topology = grid(1, 1, 1, 1, false);

    /** Builds the topology. */
    @Setup(Level.Trial)
    public void build() {
      topology =
          switch (cpus) {
            case 16 -> grid(2, 2, 2, 2, false);
            case 448 -> grid(2, 4, 28, 2, true);
            case 4096 -> grid(8, 4, 64, 2, true);
            default -> throw new IllegalArgumentException("cpus: 16, 448 or 4096, not " + cpus);
          };
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

    CpuAllocator allocator = new CpuAllocator(grid(1, 1, 1, 1, false));
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

  /**
   * A regular topology: packages × NUMA nodes per package × cores per node × threads, numbered as
   * Linux does on servers (siblings N and N + all cores) if {@code threadMajor}, else as QEMU does.
   */
  static SystemTopology grid(
      int packages, int nodesPerPackage, int coresPerNode, int threads, boolean threadMajor) {
    int nodeCount = packages * nodesPerPackage;
    int cores = nodeCount * coresPerNode;
    Map<Integer, Cpu> cpus = new HashMap<>();
    Map<Integer, NumaNode> nodes = new HashMap<>();
    for (int node = 0; node < nodeCount; node++) {
      List<Integer> nodeCpus = new ArrayList<>();
      for (int core = node * coresPerNode; core < (node + 1) * coresPerNode; core++) {
        List<Integer> siblings = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          siblings.add(threadMajor ? t * cores + core : core * threads + t);
        }
        for (int id : siblings) {
          cpus.put(id, cpu(id, node / nodesPerPackage, node, core, CpuSet.of(siblings)));
        }
        nodeCpus.addAll(siblings);
      }
      nodes.put(node, numaNode(node, CpuSet.of(nodeCpus), nodeCount));
    }
    return new SystemTopology(cpus, nodes, CpuSet.of(cpus.keySet()), CpuSet.EMPTY);
  }

  private static Cpu cpu(int id, int pkg, int node, int core, CpuSet threads) {
    return new Cpu(id, pkg, 0, node, core, threads, CpuFrequency.UNKNOWN, CoreType.UNKNOWN);
  }

  private static NumaNode numaNode(int id, CpuSet cpus, int nodeCount) {
    Map<Integer, Integer> distances = new HashMap<>();
    for (int other = 0; other < nodeCount; other++) {
      distances.put(other, other == id ? 10 : 21);
    }
    return new NumaNode(id, cpus, 1L << 30, MemoryType.DRAM, false, distances, true);
  }
}
