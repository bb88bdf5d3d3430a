/**
 * The node's hardware topology: CPUs, cores, dies, packages and NUMA nodes with their memory,
 * discovered from sysfs below {@code --host-root} ({@link io.criresmgr.policy.sysfs.SysfsReader}),
 * or generated as a fake sysfs tree from a compact topology spec ({@link
 * io.criresmgr.policy.sysfs.TopologySpec}, {@link io.criresmgr.policy.sysfs.FakeSysfsWriter}) for
 * tests and the simulator. See docs/topology.md.
 *
 * <p>Values ({@link io.criresmgr.policy.sysfs.SystemTopology}, the records, specs) are immutable
 * and may be shared between threads; the reader and writer keep no state between calls.
 */
@NullMarked
package io.criresmgr.policy.sysfs;

import org.jspecify.annotations.NullMarked;
