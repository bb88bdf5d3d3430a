package io.criresmgr.proxy.relay;

import io.grpc.Status;

/**
 * Observes relayed calls (message dump, metrics). Called on gRPC transport threads: implementations
 * must be fast, thread-safe and must not block; they see the raw message bytes.
 */
public interface RelayListener {
  /** A listener that observes nothing. */
  RelayListener NONE = method -> CallTrace.NONE;

  /** A call to {@code fullMethodName} (e.g. {@code runtime.v1.RuntimeService/Version}) starts. */
  CallTrace callStarted(String fullMethodName);

  /**
   * A call starts that the resource manager {@code intercepted} (or relays untouched); by default
   * the same as {@link #callStarted(String)}.
   */
  default CallTrace callStarted(String fullMethodName, boolean intercepted) {
    return callStarted(fullMethodName);
  }

  /** Observations of one call, in order: requests and responses, then exactly one close. */
  interface CallTrace {
    /** Observes nothing. */
    CallTrace NONE =
        new CallTrace() {
          @Override
          public boolean observesMessages() {
            return false;
          }
        };

    /**
     * Whether {@link #request} and {@link #response} observe anything: an intercepted call, whose
     * messages are parsed, encodes them for the trace only if so. True by default.
     */
    default boolean observesMessages() {
      return true;
    }

    /** A request message from the client. */
    default void request(byte[] message) {}

    /** A response message from the runtime. */
    default void response(byte[] message) {}

    /**
     * The call ended with {@code status}; {@code totalNanos} from its arrival to its close, of
     * which {@code runtimeNanos} were spent waiting for the runtime.
     */
    default void closed(Status status, long totalNanos, long runtimeNanos) {}
  }
}
