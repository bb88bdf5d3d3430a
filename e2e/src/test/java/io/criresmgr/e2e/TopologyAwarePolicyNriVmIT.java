package io.criresmgr.e2e;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link TopologyAwarePolicySuite} in the VM bed with the daemon as containerd's NRI plugin ({@code
 * cri-resmgr --nri}, docs/nri.md) and the containers created through containerd's CRI socket, as
 * kubelet does in NRI mode. It proves that the topology-aware policy places and refuses there as in
 * proxy mode ({@link TopologyAwarePolicyVmIT}): kube-system on the reserved CPU, the rest on the
 * shared one, a whole-CPU container that would empty the pool refused with the policy's reason; a
 * sidecar kept, an ordinary init container released; and a host disk's topology hint, from the
 * device NRI hands the plugin, stored in the cache.
 */
@ExtendWith({VmBed.Extension.class, VmSuiteBed.NriExtension.class})
class TopologyAwarePolicyNriVmIT extends TopologyAwarePolicySuite {}
