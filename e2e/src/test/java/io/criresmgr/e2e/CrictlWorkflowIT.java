package io.criresmgr.e2e;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link CrictlWorkflowSuite} on this host: containerd 1.6, cgroup v1 hybrid. Skipped when not root
 * or when the bed cannot start, unless {@code CI=true} or {@code -De2e.required=true}.
 */
@ExtendWith(ResmgrBed.Extension.class)
class CrictlWorkflowIT extends CrictlWorkflowSuite {}
