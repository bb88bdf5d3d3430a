package io.criresmgr.e2e;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link TopologyAwarePolicySuite} in the VM bed: containerd 1.7, pure cgroup v2. */
@ExtendWith({VmBed.Extension.class, VmSuiteBed.Extension.class})
class TopologyAwarePolicyVmIT extends TopologyAwarePolicySuite {}
