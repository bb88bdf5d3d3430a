package io.criresmgr.e2e;

import java.io.IOException;

/**
 * What the placement checks read from the node that runs the containers: this host (cgroup v1
 * hybrid, {@link #HOST}) or the VM bed (pure cgroup v2, {@link VmNode}).
 */
interface E2eNode {
  /** This host, read through {@code /proc} and the v1 hierarchies under {@code /sys/fs/cgroup}. */
  E2eNode HOST =
      new E2eNode() {
        @Override
        public ContainerCpus.Placement placement(long pid) throws IOException {
          return ResmgrBed.CPUS.of(pid);
        }

        @Override
        public void removeCgroupParent(String parent) throws IOException {
          ResmgrBed.CGROUPS.removeParent(parent);
        }
      };

  /** Where process {@code pid} of a container may run: its cgroup's CPUs and its own. */
  ContainerCpus.Placement placement(long pid) throws IOException;

  /** Removes a pod's cgroup parent and its empty parents; leftovers in use are ignored. */
  void removeCgroupParent(String parent) throws IOException;
}
