package io.criresmgr.proxy.relay;

import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;

/** Fans one call's observations out to several listeners, in order. */
public final class CompositeRelayListener implements RelayListener {
  private final List<RelayListener> listeners;

  /** Listeners in notification order. */
  public CompositeRelayListener(List<RelayListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  @Override
  public CallTrace callStarted(String fullMethodName) {
    return callStarted(fullMethodName, false);
  }

  @Override
  public CallTrace callStarted(String fullMethodName, boolean intercepted) {
    // A plain loop: this runs on every relayed call.
    List<CallTrace> traces = new ArrayList<>(listeners.size());
    for (RelayListener listener : listeners) {
      CallTrace trace = listener.callStarted(fullMethodName, intercepted);
      if (trace != CallTrace.NONE) {
        traces.add(trace);
      }
    }
    if (traces.isEmpty()) {
      return CallTrace.NONE;
    }
    return traces.size() == 1 ? traces.get(0) : new Fanout(traces);
  }

  private record Fanout(List<CallTrace> traces) implements CallTrace {
    @Override
    public boolean observesMessages() {
      for (CallTrace t : traces) {
        if (t.observesMessages()) {
          return true;
        }
      }
      return false;
    }

    @Override
    public void request(byte[] message) {
      traces.forEach(t -> t.request(message));
    }

    @Override
    public void response(byte[] message) {
      traces.forEach(t -> t.response(message));
    }

    @Override
    public void closed(Status status, long totalNanos, long runtimeNanos) {
      traces.forEach(t -> t.closed(status, totalNanos, runtimeNanos));
    }
  }
}
