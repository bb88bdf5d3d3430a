package io.criresmgr.cache;

import java.util.Objects;

/**
 * The adjustments last accepted from the node agent, as it sent them, so that a restarted daemon
 * applies them to new containers before the agent pushes again.
 *
 * @param nodeName the node name the agent sent with them
 * @param json the {@code SetAdjustment} JSON: Adjustment name to spec
 */
public record StoredAdjustments(String nodeName, String json) {
  /** Checks for nulls. */
  public StoredAdjustments {
    Objects.requireNonNull(nodeName, "nodeName");
    Objects.requireNonNull(json, "json");
  }
}
