package io.criresmgr.proxy.daemon;

import static io.criresmgr.proxy.HttpPages.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.NoDecisions;
import io.criresmgr.proxy.config.InstrumentationConfig;
import io.criresmgr.proxy.core.ActivePolicy;
import io.criresmgr.proxy.core.CacheSaver;
import io.criresmgr.proxy.core.Pipeline;
import io.criresmgr.proxy.core.Section;
import io.criresmgr.proxy.metrics.Health;
import io.criresmgr.proxy.metrics.Instrumentation;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /livez} over HTTP reports only what a restart cures, a pipeline step stuck for longer than
 * {@link Pipeline#STUCK} on the pipeline's clock (a fake one here), while {@code /healthz} reports
 * every problem: a hung pipeline fails both, a problem that waits (here a runtime not there) only
 * {@code /healthz}.
 */
class LivenessIT {
  @TempDir Path dir;

  private static void assertPage(int port, String path, int status, String body) throws Exception {
    HttpResponse<String> reply = get(port, path);
    assertEquals(body, reply.body(), path);
    assertEquals(status, reply.statusCode(), path);
  }

  @Test
  void aStuckStepFailsLivenessAndAWaitingPartOnlyReadiness() throws Exception {
    AtomicLong now = new AtomicLong(1);
    Section section =
        new Section(
            new NodeCache(),
            new ActivePolicy("none", new NoDecisions()),
            new ControllerSet(List.of()));
    Health health = new Health();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (Pipeline pipeline =
            new Pipeline(
                section, new CacheSaver(new CacheFile(dir)), EventLoops::madeByNetty, now::get);
        Instrumentation http = new Instrumentation()) {
      Daemon.watch(health, pipeline);
      health.register("nri", () -> Optional.of("not registered with the runtime"));
      http.setHealth(health);
      http.start(
          new InstrumentationConfig(
              "disabled", Duration.ofSeconds(15), "", "", "127.0.0.1:0", true));
      int port = http.port();
      assertPage(port, "/livez", 200, "ok\n");
      assertPage(port, "/healthz", 503, "nri: not registered with the runtime\n");

      AtomicReference<CompletableFuture<Boolean>> step = new AtomicReference<>();
      Thread submitter = // an idle pipeline runs the step on the thread that submits it
          new Thread(
              () ->
                  step.set(
                      pipeline.run(
                          s -> {
                            entered.countDown();
                            try {
                              return release.await(10, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                              return false;
                            }
                          })));
      submitter.start();
      assertTrue(entered.await(10, TimeUnit.SECONDS), "the step started");
      now.addAndGet(Pipeline.STUCK.toNanos()); // a long step, not yet a stuck one
      assertPage(port, "/livez", 200, "ok\n");

      now.addAndGet(Duration.ofSeconds(1).toNanos());
      String stuck =
          "pipeline: a pipeline step has run for 31 s (stuck after 30 s; every request waits"
              + " behind it)\n";
      assertPage(port, "/livez", 503, stuck);
      assertPage(port, "/healthz", 503, "nri: not registered with the runtime\n" + stuck);

      release.countDown();
      submitter.join(10_000);
      assertTrue(step.get().get(10, TimeUnit.SECONDS), "the step ended");
      assertPage(port, "/livez", 200, "ok\n");
    }
  }
}
