package io.criresmgr.policy.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Introspectable;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyMetrics;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplatePolicyProviderTest {
  private final TemplatePolicyProvider provider = new TemplatePolicyProvider();
  private final PolicyContext context =
      new PolicyContext(Path.of("/"), CpuSet.range(0, 3), CpuSet.of(0), Map.of(), Map.of());

  @Test
  void isBuiltInUnderItsName() {
    assertEquals("template", provider.name());
    assertInstanceOf(TemplatePolicyProvider.class, BuiltInPolicies.registry().require("template"));
  }

  @Test
  void createsAPolicyWithMetricsAndIntrospection() {
    Policy policy = provider.parseAndCreate(context, JsonNodeFactory.instance.objectNode());
    assertInstanceOf(Introspectable.class, policy);
    assertInstanceOf(PolicyMetrics.class, policy);
  }
}
