package io.criresmgr.agent.push;

import java.util.Objects;

/**
 * The daemon's verdict on the latest configuration it answered for (the agent's {@code
 * config-status}).
 *
 * @param verdict whether the daemon took the configuration
 * @param source the ConfigMap the configuration came from (or why it was empty)
 * @param error the daemon's reason for a rejection; empty otherwise
 */
public record ConfigStatus(Verdict verdict, String source, String error) {
  /** What the daemon said about a configuration. */
  public enum Verdict {
    /** No configuration has been answered yet (none chosen, or the daemon not reached). */
    PENDING,
    /** The daemon applied the configuration. */
    ACCEPTED,
    /** The daemon refused the configuration and kept its previous one. */
    REJECTED
  }

  /** The status before the daemon answered anything. */
  public static final ConfigStatus PENDING = new ConfigStatus(Verdict.PENDING, "", "");

  /** Checks that only a rejection has an error, and that it has one. */
  public ConfigStatus {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(error, "error");
    if ((verdict == Verdict.REJECTED) == error.isEmpty()) {
      throw new IllegalArgumentException("a rejection, and only a rejection, has an error");
    }
  }

  /** The daemon accepted the configuration from {@code source}. */
  public static ConfigStatus accepted(String source) {
    return new ConfigStatus(Verdict.ACCEPTED, source, "");
  }

  /** The daemon rejected the configuration from {@code source} because of {@code error}. */
  public static ConfigStatus rejected(String source, String error) {
    return new ConfigStatus(Verdict.REJECTED, source, error);
  }
}
