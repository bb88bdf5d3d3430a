package io.criresmgr.proxy.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.metrics.RelayMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class CompositeRelayListenerTest {
  private static final String METHOD = "runtime.v1.RuntimeService/CreateContainer";

  private final List<String> seen = new CopyOnWriteArrayList<>();

  /** A listener whose traces record the messages they see. */
  private final RelayListener recording =
      method ->
          new RelayListener.CallTrace() {
            @Override
            public void request(byte[] message) {
              seen.add("request " + new String(message, StandardCharsets.UTF_8));
            }
          };

  private final RelayListener metrics = new RelayMetrics(new SimpleMeterRegistry());

  @Test
  void onlyMetricsObserveNoMessages() {
    RelayListener.CallTrace trace =
        new CompositeRelayListener(List.of(metrics)).callStarted(METHOD, true);
    assertFalse(trace.observesMessages());
  }

  @Test
  void noListenerIsTheEmptyTrace() {
    RelayListener.CallTrace trace = new CompositeRelayListener(List.of()).callStarted(METHOD, true);
    assertSame(RelayListener.CallTrace.NONE, trace);
    assertFalse(trace.observesMessages());
  }

  @Test
  void aListenerReadingMessagesAmongOthersGetsThem() {
    RelayListener.CallTrace trace =
        new CompositeRelayListener(List.of(metrics, recording)).callStarted(METHOD, true);
    assertTrue(trace.observesMessages());
    trace.request("x".getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of("request x"), seen);
  }
}
