package io.criresmgr.agent.server;

import io.criresmgr.agent.push.ConfigStatus;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Answers {@code HealthCheck}: the empty query asks whether the agent runs (it does, since it
 * answers), {@code config-status} also fails with the daemon's rejection of the last pushed
 * configuration.
 */
public final class HealthQueries {
  /** The query of cri-resmgr's readiness probe. */
  public static final String CONFIG_STATUS = "config-status";

  private final Supplier<ConfigStatus> status;

  /** Queries answered from {@code status}, the configuration push's latest status. */
  public HealthQueries(Supplier<ConfigStatus> status) {
    this.status = Objects.requireNonNull(status, "status");
  }

  /** Why the agent is unhealthy for {@code query}; empty when healthy. */
  public String error(String query) {
    return switch (query) {
      case "" -> "";
      case CONFIG_STATUS -> status.get().error();
      default ->
          "unknown health query \""
              + query
              + "\"; allowed: \"\" (the agent runs) and \""
              + CONFIG_STATUS
              + "\" (the last configuration was not rejected)";
    };
  }
}
