package io.criresmgr.agent.kube;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;

/**
 * Per-call timeouts for the API server: the agent's client has no read timeout (its watches stay
 * quiet for minutes), so each call gets one of its own, and a half-open connection still ends.
 *
 * @param call how long a list or a patch may take
 * @param watch how long a watch may stay open: a little more than its server-side timeout
 */
public record CallTimeouts(Duration call, Duration watch) {
  /** The agent's: {@link NodeApi#CALL_TIMEOUT}, and 30 s more than the watches' server timeout. */
  public static final CallTimeouts DEFAULT =
      new CallTimeouts(
          NodeApi.CALL_TIMEOUT, Duration.ofSeconds(KubeSources.WATCH_TIMEOUT_SECONDS + 30));

  /** Rejects non-positive timeouts. */
  public CallTimeouts {
    requirePositive(call, "call");
    requirePositive(watch, "watch");
  }

  private static void requirePositive(Duration timeout, String what) {
    Objects.requireNonNull(timeout, what);
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(what + " timeout must be positive: " + timeout);
    }
  }

  /** {@code call} with the call timeout. */
  Call forCall(Call call) {
    call.timeout().timeout(this.call.toMillis(), TimeUnit.MILLISECONDS);
    return call;
  }

  /** {@code call}, a watch, with the watch timeout. */
  Call forWatch(Call call) {
    call.timeout().timeout(watch.toMillis(), TimeUnit.MILLISECONDS);
    return call;
  }
}
