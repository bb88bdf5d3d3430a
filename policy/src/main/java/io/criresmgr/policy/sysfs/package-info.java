/**
 * The node's hardware topology: CPUs, cores, dies, packages and NUMA nodes with their memory,
 * discovered from sysfs below {@code --host-root} ({@link io.criresmgr.policy.sysfs.SysfsReader}),
 * or generated as a fake sysfs tree from a compact topology spec ({@link
 * io.criresmgr.policy.sysfs.TopologySpec}, {@link io.criresmgr.policy.sysfs.FakeSysfsWriter}) for
 * tests and the simulator.
 */
@NullMarked
package io.criresmgr.policy.sysfs;

import org.jspecify.annotations.NullMarked;
