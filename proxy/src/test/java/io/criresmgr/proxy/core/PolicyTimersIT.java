package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyEvent;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.PolicyProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timers a policy asks for come back as events in the pipeline and their decisions are enforced.
 */
class PolicyTimersIT {
  private static final String WIDEN = "test-widen";

  @TempDir Path dir;
  private PipelineHarness h;

  @BeforeEach
  void start() throws Exception {
    h = new PipelineHarness(dir);
    h.startDaemon(WideningPolicy.NAME, false, new WideningPolicy.Provider());
  }

  @AfterEach
  void close() {
    h.close();
  }

  @Test
  void aTimerEventWidensTheCpusetAfterTheDelay() throws Exception {
    String pod = h.runPod("web");
    String a = h.createAndStart(pod, "a");
    assertEquals("0", h.cpuset(a), "before the timer fires");
    h.awaitCpuset(a, "0-1");
  }

  @Test
  void aTimerForARemovedContainerIsHarmless() throws Exception {
    String pod = h.runPod("web");
    String a = h.createAndStart(pod, "a");
    h.stop(a);
    h.remove(a);
    String b = h.createAndStart(pod, "b");
    h.awaitCpuset(b, "0-1");
  }

  /** Gives CPU 0 at creation and CPUs 0-1 when its timer fires 200 ms later. */
  static final class WideningPolicy implements Policy {
    static final String NAME = "test-widening";

    @Override
    public Decisions allocate(Container container, NodeState node) {
      PolicyEvent widen = new PolicyEvent(WIDEN, container.cacheId(), Map.of());
      return Decisions.of(container.cacheId(), Assignment.of(CpuSet.of(0), CpuSet.EMPTY))
          .withTimer(Duration.ofMillis(200), widen);
    }

    @Override
    public Decisions release(Container container, NodeState node) {
      return Decisions.NONE;
    }

    @Override
    public Decisions update(Container container, NodeState node) {
      return Decisions.NONE;
    }

    @Override
    public Decisions handleEvent(PolicyEvent event, NodeState node) {
      if (!event.type().equals(WIDEN)) {
        return Decisions.NONE;
      }
      return node.container(event.cacheId())
          .filter(c -> c.state().isActive())
          .map(c -> Decisions.of(c.cacheId(), Assignment.of(CpuSet.range(0, 1), CpuSet.EMPTY)))
          .orElse(Decisions.NONE);
    }

    /** Its provider. */
    static final class Provider implements PolicyProvider<PolicyOptions> {
      @Override
      public String name() {
        return NAME;
      }

      @Override
      public String description() {
        return "Test policy: widens each cpuset when its timer fires.";
      }

      @Override
      public PolicyOptions parseOptions(JsonNode section) {
        return PolicyOptions.NONE;
      }

      @Override
      public Policy create(PolicyContext context, PolicyOptions options) {
        return new WideningPolicy();
      }
    }
  }
}
