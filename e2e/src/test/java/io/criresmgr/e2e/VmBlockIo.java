package io.criresmgr.e2e;

import static io.criresmgr.e2e.ResmgrBed.podName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The block I/O part of {@link VmMemoryQosIT}: classes with a default weight and a throttle, and
 * with a per-device weight, on the VM's data disk, read back from the containers' real {@code
 * io.weight}, {@code io.max} and {@code io.bfq.weight} (docs/controllers/blockio.md, "cgroup v2").
 * The per-device weight is checked twice: with the disk's scheduler {@code none} (the kernel has
 * nowhere to take it: the daemon warns and writes the rest), and with {@code bfq} (it goes into
 * {@code io.bfq.weight}); the disk gets its scheduler back afterwards.
 */
final class VmBlockIo {
  private static final String KEY = "blockioclass.cri-resource-manager.intel.com/container.";

  private final VmBed vm;
  private final VmDaemon daemon;
  private final String disk;
  private final String majMin;

  VmBlockIo(VmBed vm, VmDaemon daemon, String disk, String majMin) {
    this.vm = vm;
    this.daemon = daemon;
    this.disk = disk;
    this.majMin = majMin;
  }

  /** The {@code blockio} section for data disk {@code /dev/<disk>}. */
  static String section(String disk) {
    return """
        blockio:
          Classes:
            throttled:
            - Weight: 80
            - Devices: ["/dev/%1$s"]
              ThrottleReadBps: 50M
              ThrottleWriteIOPS: 120
            devweight:
            - Weight: 30
            - Devices: ["/dev/%1$s"]
              Weight: 50
        """
        .formatted(disk);
  }

  void run() throws IOException {
    VmNode node = new VmNode(vm.shell());
    String name = podName("v2bio");
    var spec = VmCgroupsIT.burstable(name, Path.of("/tmp", name), WorkflowSpec.NAMESPACE);
    Map<String, String> annotations =
        Map.of(KEY + "thr", "throttled", KEY + "dw", "devweight", KEY + "bfq", "devweight");
    try (CriClient cri = new CriClient(daemon.relaySocket());
        PinnedPod pod = PinnedPod.run(cri, spec, annotations, node)) {
      String parent = spec.cgroupParent();
      String thr = pod.start("thr", PinnedPod.halfCpuShared());
      // weights on runc's v2 scale: 80 -> 708, 30 -> 203; io.max always names all four limits
      assertEquals(
          Map.of(
              "io.weight",
              "default 708",
              "io.max",
              majMin + " rbps=50000000 wbps=max riops=max wiops=120"),
          node.containerFiles(parent, thr, "io.weight", "io.max"),
          "class throttled: default weight and throttles");
      String scheduler = activeScheduler();
      assertEquals("none", scheduler, "the data disk's scheduler at boot");
      String dw = pod.start("dw", PinnedPod.halfCpuShared());
      assertEquals(
          Map.of("io.weight", "default 203", "io.max", ""),
          node.containerFiles(parent, dw, "io.weight", "io.max"),
          "class devweight with scheduler none: the default weight, no device weight");
      String log = daemon.log();
      String warning =
          "weight 50 of device "
              + majMin
              + " (class devweight) not applied to "
              + VmNode.containerDir(parent, dw)
              + ": the kernel takes device weights only in io.bfq.weight when the device's I/O"
              + " scheduler is bfq (it is none) or in io.weight when iocost is enabled for it (it"
              + " is not in /sys/fs/cgroup/io.cost.qos)";
      assertTrue(log.contains(warning), () -> "no warning " + warning + " in:\n" + log);
      assertEquals(
          Map.of("io.weight", "default 203", "io.bfq.weight", "default 30\n" + majMin + " 50"),
          startOnBfq(pod, node, parent),
          "class devweight with scheduler bfq: the device weight in io.bfq.weight");
    }
  }

  /**
   * Starts container {@code bfq} while the data disk's scheduler is bfq and reads its weight files,
   * then puts the scheduler back. The files are read before: leaving BFQ drops the device's BFQ
   * settings of every cgroup, so {@code io.bfq.weight} then shows only its default.
   */
  private Map<String, String> startOnBfq(PinnedPod pod, VmNode node, String parent)
      throws IOException {
    String file = "/sys/block/" + disk + "/queue/scheduler";
    vm.shell().write(file, "bfq");
    try {
      assertEquals("bfq", activeScheduler(), file);
      String id = pod.start("bfq", PinnedPod.halfCpuShared());
      return node.containerFiles(parent, id, "io.weight", "io.bfq.weight");
    } finally {
      vm.shell().write(file, "none");
    }
  }

  private String activeScheduler() throws IOException {
    String s = vm.shell().read("/sys/block/" + disk + "/queue/scheduler");
    int open = s.indexOf('[');
    return open < 0 ? s : s.substring(open + 1, s.indexOf(']'));
  }
}
