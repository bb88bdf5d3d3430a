package io.criresmgr.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.NodeState;

/** Optional interface of a {@link Policy} that shows its view (pools, balloons) on /introspect. */
public interface Introspectable {
  /** The policy's view as JSON; called on the pipeline thread. */
  JsonNode introspect(NodeState node);
}
