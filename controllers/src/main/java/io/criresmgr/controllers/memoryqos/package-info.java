/**
 * Memory QoS (the nri-plugins memory-qos plugin's documented behaviour): the {@code memory-qos}
 * configuration section, the {@code class.memory-qos.nri.io} and {@code <file>.memory-qos.nri.io}
 * annotations, the cgroup v2 unified files they decide for a container, and the {@code memory-qos}
 * controller that puts those files into CRI requests and container cgroups on cgroup v2 hosts.
 */
@NullMarked
package io.criresmgr.controllers.memoryqos;

import org.jspecify.annotations.NullMarked;
