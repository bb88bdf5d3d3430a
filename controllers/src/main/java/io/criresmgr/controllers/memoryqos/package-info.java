/**
 * Memory QoS (the nri-plugins memory-qos plugin's documented behaviour): the {@code memory-qos}
 * configuration section, the {@code class.memory-qos.nri.io} and {@code <file>.memory-qos.nri.io}
 * annotations, and the cgroup v2 unified files they decide for a container. Pure functions, no host
 * access: applying the files is up to the caller.
 */
@NullMarked
package io.criresmgr.controllers.memoryqos;

import org.jspecify.annotations.NullMarked;
