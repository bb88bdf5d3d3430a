package io.criresmgr.e2e;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;

/**
 * The VM bed as an {@link E2eNode}: everything is read in the VM through its command channel, from
 * the single cgroup v2 hierarchy at {@code /sys/fs/cgroup}.
 */
final class VmNode implements E2eNode {
  /** The VM's cgroup mount. */
  static final String CGROUP_ROOT = "/sys/fs/cgroup";

  private final VmShell shell;

  VmNode(VmShell shell) {
    this.shell = Objects.requireNonNull(shell, "shell");
  }

  @Override
  public ContainerCpus.Placement placement(long pid) throws IOException {
    String procCgroup = shell.read("/proc/" + pid + "/cgroup");
    String cgroup = ContainerCpus.unifiedCgroup(procCgroup);
    String status = shell.check("cat /proc/" + pid + "/status");
    String cpus = shell.read(CGROUP_ROOT + cgroup + "/cpuset.cpus.effective");
    return new ContainerCpus.Placement(cgroup, cpus, ContainerCpus.allowedCpus(status));
  }

  @Override
  public void removeCgroupParent(String parent) throws IOException {
    String relative = parent.startsWith("/") ? parent.substring(1) : parent;
    // rmdir fails on a cgroup still in use, which ends the walk up
    shell.run(
        "cd "
            + CGROUP_ROOT
            + " && d="
            + VmShell.quote(relative)
            + "; while [ -n \"$d\" ] && [ \"$d\" != . ] && rmdir \"$d\" 2>/dev/null;"
            + " do d=$(dirname \"$d\"); done",
        java.time.Duration.ofMinutes(1));
  }

  /**
   * The trimmed contents of {@code files} in the cgroup of container {@code id} under {@code
   * parent} (cgroupfs driver: {@code /sys/fs/cgroup/<parent>/<id>}).
   */
  Map<String, String> containerFiles(String parent, String id, String... files) throws IOException {
    return shell.readAll(containerDir(parent, id), files);
  }

  /** The cgroup directory of container {@code id} under {@code parent}. */
  static String containerDir(String parent, String id) {
    return CGROUP_ROOT + (parent.startsWith("/") ? parent : "/" + parent) + "/" + id;
  }

  /** The shell this node reads through. */
  VmShell shell() {
    return shell;
  }
}
