package io.criresmgr.e2e;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link BalloonsPolicySuite} in the VM bed: containerd 1.7, pure cgroup v2. */
@ExtendWith({VmBed.Extension.class, VmSuiteBed.Extension.class})
class BalloonsPolicyVmIT extends BalloonsPolicySuite {}
