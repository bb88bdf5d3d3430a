package io.criresmgr.e2e;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link CgroupsControllerSuite} on this host: containerd 1.6, cgroup v1 hybrid. */
@ExtendWith(ResmgrBed.Extension.class)
class CgroupsControllerIT extends CgroupsControllerSuite {}
