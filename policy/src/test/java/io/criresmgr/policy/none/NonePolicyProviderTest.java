package io.criresmgr.policy.none;

import static io.criresmgr.policy.FakeNode.cpu;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyEvent;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyOptions;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NonePolicyProviderTest {
  private final NonePolicyProvider provider = new NonePolicyProvider();

  @Test
  void nameAndDescription() {
    assertEquals("none", provider.name());
    assertEquals("A no-op policy, doing pretty much nothing.", provider.description());
  }

  @Test
  void acceptsAnAbsentOrEmptySection() {
    assertSame(PolicyOptions.NONE, provider.parseOptions(JsonNodeFactory.instance.objectNode()));
    assertSame(PolicyOptions.NONE, provider.parseOptions(MissingNode.getInstance()));
  }

  @Test
  void rejectsAnyOption() throws Exception {
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> provider.parseOptions(new ObjectMapper().readTree("{\"PinCPU\":true}")));
    assertEquals(
        "policy.none: the none policy has no options, found {\"PinCPU\":true}", e.getMessage());
  }

  @Test
  void memoryQosIsNoneUnderItsOwnNameAndPointsToTheSection() throws Exception {
    NonePolicyProvider memoryQos = NonePolicyProvider.memoryQos();
    assertEquals("memory-qos", memoryQos.name());
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> memoryQos.parseOptions(new ObjectMapper().readTree("{\"classes\":[]}")));
    assertEquals(
        "policy.memory-qos: the memory-qos policy has no options (classes go to the top-level"
            + " section memory-qos), found {\"classes\":[]}",
        e.getMessage());
  }

  @Test
  void decidesNothing() {
    Policy policy =
        provider.create(
            new PolicyContext(Path.of("/"), CpuSet.of(0), CpuSet.of(0), Map.of(), Map.of()),
            PolicyOptions.NONE);
    FakeNode node = new FakeNode(provider.name());
    Container c = node.create("p", "c", cpu(1000, 1000));
    assertEquals(
        Decisions.NONE.withExplanation(
            c.cacheId(), Explanation.of("none: no placement, the runtime's defaults apply")),
        policy.allocate(c, node.cache()),
        "nothing but an explanation");
    assertSame(Decisions.NONE, policy.update(c, node.cache()));
    assertSame(Decisions.NONE, policy.release(c, node.cache()));
    assertSame(Decisions.NONE, policy.rebalance(node.cache()));
    assertSame(
        Decisions.NONE,
        policy.handleEvent(
            new PolicyEvent(PolicyEvent.CONTAINER_STARTED, c.cacheId(), Map.of()), node.cache()));
  }
}
