package io.criresmgr.policy;

import java.util.Map;
import java.util.Objects;

/**
 * An event delivered to the active policy through the pipeline.
 *
 * @param type event type, e.g. {@link #CONTAINER_STARTED}
 * @param cacheId the container concerned, or empty
 * @param data event details
 */
public record PolicyEvent(String type, String cacheId, Map<String, String> data) {
  /** A container was started by the runtime. */
  public static final String CONTAINER_STARTED = "container-started";

  /** Checks for nulls and copies the map. */
  public PolicyEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(cacheId, "cacheId");
    data = Map.copyOf(data);
  }
}
