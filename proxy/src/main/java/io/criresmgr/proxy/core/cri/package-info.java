/**
 * Translation between CRI protobuf messages and the node cache's records: what kubelet asked for
 * becomes a {@link io.criresmgr.cache.Pod} or {@link io.criresmgr.cache.Container}, and a decision
 * becomes the {@code LinuxContainerResources} sent to the runtime. Stateless static functions, part
 * of the daemon's core.
 */
@NullMarked
package io.criresmgr.proxy.core.cri;

import org.jspecify.annotations.NullMarked;
