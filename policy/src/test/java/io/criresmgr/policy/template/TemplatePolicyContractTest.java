package io.criresmgr.policy.template;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyContractTest;
import io.criresmgr.policy.PolicyProvider;
import java.nio.file.Path;
import java.util.Map;

/** The contract with exclusive CPUs on and a CPU constraint narrower than the online CPUs. */
class TemplatePolicyContractTest extends PolicyContractTest {
  @Override
  protected PolicyProvider<?> provider() {
    return new TemplatePolicyProvider();
  }

  @Override
  protected PolicyContext context() {
    return new PolicyContext(
        Path.of("/nonexistent-host-root"),
        CpuSet.range(0, 7),
        CpuSet.of(0, 1),
        Map.of("CPU", "cpuset:1-6"),
        Map.of());
  }

  @Override
  protected CpuSet allowedCpus() {
    return CpuSet.range(1, 6);
  }
}
