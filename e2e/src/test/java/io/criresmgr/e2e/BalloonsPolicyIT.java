package io.criresmgr.e2e;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link BalloonsPolicySuite} on this host: containerd 1.6, cgroup v1 hybrid. */
@ExtendWith(ResmgrBed.Extension.class)
class BalloonsPolicyIT extends BalloonsPolicySuite {}
