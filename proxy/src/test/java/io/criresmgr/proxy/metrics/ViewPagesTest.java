package io.criresmgr.proxy.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.config.InstrumentationConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The live view's pages go to the clients {@code /introspect} goes to, whatever they asked for. */
class ViewPagesTest {
  private static InstrumentationConfig config(boolean remoteIntrospection) {
    return new InstrumentationConfig(
        "disabled", Duration.ofSeconds(15), "", "", "127.0.0.1:0", true, remoteIntrospection);
  }

  @Test
  void viewPagesFollowRemoteIntrospection() throws Exception {
    try (Instrumentation instrumentation = new Instrumentation()) {
      instrumentation.setViewPages(Map.of("/ui", new Route("text/html", () -> "<p>", false)));
      Route local = instrumentation.routes(config(false)).get("/ui");
      assertTrue(local.loopbackOnly(), "loopback only, like /introspect");
      assertTrue(instrumentation.routes(config(false)).get("/introspect").loopbackOnly());
      assertEquals("<p>", local.source().get());
      assertEquals("text/html", local.contentType());
      assertFalse(instrumentation.routes(config(true)).get("/ui").loopbackOnly());
    }
  }

  @Test
  void aViewPageCannotReplaceTheFixedOnes() throws Exception {
    try (Instrumentation instrumentation = new Instrumentation()) {
      instrumentation.setViewPages(Map.of("/metrics", new Route("text/html", () -> "<p>", true)));
      assertFalse(instrumentation.routes(config(false)).get("/metrics").loopbackOnly());
    }
  }
}
