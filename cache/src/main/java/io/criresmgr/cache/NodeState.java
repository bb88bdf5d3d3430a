package io.criresmgr.cache;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A read-only view of the node cache, handed to policies. Valid only during the call it is passed
 * to: it is the live cache, owned by the pipeline thread.
 */
public interface NodeState {
  /** Every pod, by sandbox id order. */
  List<Pod> pods();

  /** Every container, in creation order (oldest first). */
  List<Container> containers();

  /** The pod with this sandbox id. */
  Optional<Pod> pod(String podId);

  /** The container with this cache id ({@code <podUID>:<name>}). */
  Optional<Container> container(String cacheId);

  /**
   * The container with this cache id, or null: {@link #container} without an {@code Optional}, for
   * the loops of one decision over hundreds of containers (docs/benchmarks.md, "Issue 20: bytes per
   * decision").
   */
  default @Nullable Container containerOrNull(String cacheId) {
    return container(cacheId).orElse(null);
  }

  /** The pod with this sandbox id, or null: {@link #pod} without an {@code Optional}. */
  default @Nullable Pod podOrNull(String podId) {
    return pod(podId).orElse(null);
  }

  /** The container with this runtime id. */
  Optional<Container> containerById(String id);

  /** The private state a policy stored, if any. */
  Optional<JsonNode> policyData(String policyName);
}
