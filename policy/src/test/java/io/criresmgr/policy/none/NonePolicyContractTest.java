package io.criresmgr.policy.none;

import io.criresmgr.policy.PolicyContractTest;
import io.criresmgr.policy.PolicyProvider;

class NonePolicyContractTest extends PolicyContractTest {
  @Override
  protected PolicyProvider<?> provider() {
    return new NonePolicyProvider();
  }
}
