package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.NodeState;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;
import io.criresmgr.proxy.NoDecisions;
import io.criresmgr.proxy.core.ActivePolicy;
import io.criresmgr.proxy.core.CacheSaver;
import io.criresmgr.proxy.core.Pipeline;
import io.criresmgr.proxy.core.Section;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RebalancerTest {
  @TempDir Path dir;

  @Test
  void rebalancesPeriodicallyInPipelineSteps() throws Exception {
    CountDownLatch three = new CountDownLatch(3);
    AtomicReference<Pipeline> running = new AtomicReference<>();
    AtomicBoolean outsideSteps = new AtomicBoolean();
    Policy policy =
        new NoDecisions() {

          @Override
          public Decisions rebalance(NodeState node) {
            outsideSteps.compareAndSet(false, !running.get().inStep());
            three.countDown();
            return Decisions.NONE;
          }
        };
    Section section =
        new Section(
            new NodeCache(), new ActivePolicy("counting", policy), new ControllerSet(List.of()));
    try (Pipeline pipeline =
        new Pipeline(section, new CacheSaver(new CacheFile(dir)), EventLoops::madeByNetty)) {
      running.set(pipeline);
      Rebalancer rebalancer = new Rebalancer(pipeline, Duration.ofMillis(20));
      try {
        assertTrue(three.await(10, TimeUnit.SECONDS), "three rebalances within 10 s");
        assertFalse(outsideSteps.get(), "a rebalance ran outside a pipeline step");
      } finally {
        rebalancer.close();
      }
    }
  }
}
