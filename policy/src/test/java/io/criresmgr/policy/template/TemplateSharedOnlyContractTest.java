package io.criresmgr.policy.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.cache.Container;
import io.criresmgr.policy.PolicyContractTest;
import io.criresmgr.policy.PolicyProvider;

/** The contract with {@code ExclusiveCpus: false}: every container shares every online CPU. */
class TemplateSharedOnlyContractTest extends PolicyContractTest {
  @Override
  protected PolicyProvider<?> provider() {
    return new TemplatePolicyProvider();
  }

  @Override
  protected JsonNode options() {
    return JsonNodeFactory.instance.objectNode().put("ExclusiveCpus", false);
  }

  @Override
  protected boolean holdsExclusively(Container c) {
    return false;
  }
}
