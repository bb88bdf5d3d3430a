package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Writes a fake sysfs tree for a {@link TopologySpec} below a host root, in the layout {@link
 * SysfsReader} reads from a real node (and {@link io.criresmgr.policy.HostCpus} too). Files are
 * written without syncing and each directory is created once, yet a tree of 4096 CPUs is about
 * 45,000 entries: seconds on tmpfs, much longer on a busy disk. Callers that only need the {@link
 * SystemTopology} use {@link TopologySpec#topology()}.
 */
public final class FakeSysfsWriter {
  private final SpecLayout layout;
  private final Path sys;
  private final Path cpuDir;
  private final Path nodeDir;
  private final Set<Path> directories = new HashSet<>();

  private FakeSysfsWriter(TopologySpec spec, Path hostRoot) {
    this.layout = new SpecLayout(spec);
    this.sys = hostRoot.resolve("sys");
    this.cpuDir = sys.resolve(SysfsReader.CPU_DIR);
    this.nodeDir = sys.resolve(NodeReader.DIR);
  }

  /**
   * Writes {@code <hostRoot>/sys/devices/system/{cpu,node}}, the hybrid core lists {@code
   * sys/devices/cpu_{core,atom}/cpus} if the spec has core types, each CPU's L2 and L3 caches
   * ({@code cpu<N>/cache/index<I>/{level,type,shared_cpu_list}}), and {@code sys/bus/dax} devices
   * for memory-only nodes with a {@code mem-type} of cxl (dram) or pmem.
   *
   * @throws IllegalStateException if {@code hostRoot} already has {@code sys/devices/system/cpu} (a
   *     tree is written once, into an empty directory, never over a real or earlier one)
   * @throws java.io.UncheckedIOException if a file cannot be written
   */
  public static void write(TopologySpec spec, Path hostRoot) {
    FakeSysfsWriter writer = new FakeSysfsWriter(spec, hostRoot);
    if (Files.exists(writer.cpuDir)) {
      throw new IllegalStateException(
          writer.cpuDir + ": exists; write a fake sysfs into an empty directory");
    }
    writer.writeAll(spec.isolated());
  }

  private void writeAll(CpuSet isolated) {
    CpuSet online = CpuSet.of(layout.cpus().keySet());
    CpuSet present = layout.present();
    write(cpuDir.resolve("online"), online.toString());
    write(cpuDir.resolve("present"), present.toString());
    write(cpuDir.resolve("possible"), present.toString());
    write(cpuDir.resolve("offline"), present.difference(online).toString());
    write(cpuDir.resolve("isolated"), isolated.toString());
    layout.cpus().values().forEach(this::writeCpu);
    writeCaches();
    present.difference(online).stream().forEach(id -> write(cpuPath(id, "online"), "0"));
    writeNodes();
    writeCoreTypes();
    writeDax();
  }

  private void writeCpu(Cpu cpu) {
    Path topology = cpuPath(cpu.id(), "topology");
    write(cpuPath(cpu.id(), "online"), "1");
    write(topology.resolve("physical_package_id"), Integer.toString(cpu.packageId()));
    write(topology.resolve("die_id"), Integer.toString(cpu.dieId()));
    write(topology.resolve("core_id"), Integer.toString(cpu.coreId()));
    write(topology.resolve("thread_siblings_list"), cpu.threads().toString());
    link(cpuPath(cpu.id(), "node" + cpu.nodeId()), "../../node/node" + cpu.nodeId());
    CpuFrequency f = cpu.frequency();
    Path cpufreq = cpuPath(cpu.id(), "cpufreq");
    writeIf(f.minKhz() > 0, cpufreq.resolve("cpuinfo_min_freq"), Long.toString(f.minKhz()));
    writeIf(f.maxKhz() > 0, cpufreq.resolve("cpuinfo_max_freq"), Long.toString(f.maxKhz()));
    writeIf(f.baseKhz() > 0, cpufreq.resolve("base_frequency"), Long.toString(f.baseKhz()));
    writeIf(!f.epp().isEmpty(), cpufreq.resolve("energy_performance_preference"), f.epp());
  }

  /**
   * Each CPU's caches as {@code cache/index<level>}: a real x86 kernel has L1 data and instruction
   * caches as index0 and index1 (not written), then L2 as index2 and L3 as index3.
   */
  private void writeCaches() {
    for (CpuCache c : layout.caches()) {
      for (int id : c.cpus().stream().toArray()) {
        Path dir = cpuPath(id, "cache").resolve("index" + c.level());
        write(dir.resolve("level"), Integer.toString(c.level()));
        write(dir.resolve("type"), c.type().label());
        write(dir.resolve("shared_cpu_list"), c.cpus().toString());
      }
    }
  }

  private Path cpuPath(int id, String name) {
    return cpuDir.resolve("cpu" + id).resolve(name);
  }

  private void writeNodes() {
    Map<Integer, NumaNode> nodes = layout.nodes();
    CpuSet all = CpuSet.of(nodes.keySet());
    CpuSet withMemory = ids(nodes, n -> n.memoryBytes() > 0);
    write(nodeDir.resolve("online"), all.toString());
    write(nodeDir.resolve("possible"), all.toString());
    write(nodeDir.resolve("has_memory"), withMemory.toString());
    write(nodeDir.resolve("has_normal_memory"), ids(nodes, NumaNode::normalMemory).toString());
    write(nodeDir.resolve("has_cpu"), ids(nodes, n -> !n.memoryOnly()).toString());
    for (NumaNode n : nodes.values()) {
      Path dir = nodeDir.resolve("node" + n.id());
      write(dir.resolve("cpulist"), n.cpus().toString());
      String row =
          nodes.keySet().stream()
              .map(to -> Integer.toString(n.distance(to)))
              .collect(Collectors.joining(" "));
      write(dir.resolve("distance"), row);
      write(dir.resolve("meminfo"), meminfo(n));
    }
  }

  private static CpuSet ids(Map<Integer, NumaNode> nodes, Predicate<NumaNode> p) {
    return CpuSet.of(nodes.values().stream().filter(p).map(NumaNode::id).toList());
  }

  private static String meminfo(NumaNode n) {
    long kb = n.memoryBytes() / 1024;
    return String.format(
        "Node %d MemTotal:       %8d kB\nNode %d MemFree:        %8d kB\nNode %d MemUsed:        %8d kB",
        n.id(), kb, n.id(), kb, n.id(), 0);
  }

  private void writeCoreTypes() {
    CpuSet performance = cpusOf(CoreType.PERFORMANCE);
    CpuSet efficient = cpusOf(CoreType.EFFICIENT);
    if (!performance.isEmpty() || !efficient.isEmpty()) {
      write(sys.resolve("devices/cpu_core/cpus"), performance.toString());
      write(sys.resolve("devices/cpu_atom/cpus"), efficient.toString());
    }
  }

  private CpuSet cpusOf(CoreType type) {
    return CpuSet.of(
        layout.cpus().values().stream().filter(c -> c.coreType() == type).map(Cpu::id).toList());
  }

  /** Dax devices where real kernels put them: below a CXL root (ACPI0017) or an NVDIMM bus. */
  private void writeDax() {
    int index = 0;
    for (Map.Entry<Integer, MemoryType> e : new TreeMap<>(layout.dax()).entrySet()) {
      String name = "dax" + index + ".0";
      String parent =
          e.getValue() == MemoryType.PMEM
              ? "devices/platform/ACPI0012:00/ndbus0/region" + index + "/" + name
              : "devices/platform/ACPI0017:00/root0/decoder0.0/region"
                  + index
                  + "/dax_region"
                  + index;
      Path device = sys.resolve(parent).resolve(name);
      write(device.resolve("target_node"), Integer.toString(e.getKey()));
      link(sys.resolve(DaxDevices.DIR).resolve(name), "../../../" + parent + "/" + name);
      index++;
    }
  }

  private void writeIf(boolean condition, Path file, String content) {
    if (condition) {
      write(file, content);
    }
  }

  private void write(Path file, String content) {
    try {
      directory(parent(file));
      Files.write(file, (content + "\n").getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path parent(Path file) {
    return Objects.requireNonNull(file.getParent(), () -> file + " has no parent directory");
  }

  private void link(Path link, String target) {
    try {
      directory(parent(link));
      Files.createSymbolicLink(link, Path.of(target));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Creates {@code dir} once: repeated createDirectories calls cost a failed mkdir each. */
  private void directory(Path dir) throws IOException {
    if (directories.add(dir)) {
      Files.createDirectories(dir);
    }
  }
}
