package io.criresmgr.policy;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The policy module's exception root: a request a policy cannot satisfy, or options it rejects. The
 * message is shown to the client or operator and should say what to change. A refusal of a
 * container may also carry an {@link Explanation} (the closest candidate and what it lacked), kept
 * by the daemon for operators; the message stays what the client sees.
 */
public class PolicyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient @Nullable Explanation why;

  /** Without message. */
  public PolicyException() {
    this.why = null;
  }

  /** With a message. */
  public PolicyException(String message) {
    super(message);
    this.why = null;
  }

  /** With a message and a cause. */
  public PolicyException(String message, Throwable cause) {
    super(message, cause);
    this.why = null;
  }

  /** A refusal with a message, a cause (may be null) and an explanation for operators. */
  public PolicyException(String message, @Nullable Throwable cause, Explanation why) {
    super(message, cause);
    this.why = why;
  }

  /** With a cause. */
  public PolicyException(Throwable cause) {
    super(cause);
    this.why = null;
  }

  /** The explanation of a refusal, if the policy gave one. */
  public Optional<Explanation> why() {
    return Optional.ofNullable(why);
  }
}
