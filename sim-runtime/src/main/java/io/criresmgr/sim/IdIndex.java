package io.criresmgr.sim;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Resolves full or truncated ids, like containerd's truncindex. */
final class IdIndex {
  private IdIndex() {}

  /**
   * Finds the value whose id is {@code id} or, failing that, the only one whose id starts with it.
   *
   * @throws io.grpc.StatusRuntimeException INVALID_ARGUMENT for an empty or ambiguous id
   */
  static <V> Optional<V> find(Map<String, V> byId, String id, String kind) {
    if (id.isEmpty()) {
      throw SimErrors.invalidArgument(kind + " id must not be empty");
    }
    V exact = byId.get(id);
    if (exact != null) {
      return Optional.of(exact);
    }
    List<String> matches = byId.keySet().stream().filter(k -> k.startsWith(id)).toList();
    if (matches.size() > 1) {
      throw SimErrors.invalidArgument(kind + " id prefix \"" + id + "\" is ambiguous");
    }
    return matches.stream().findFirst().map(byId::get);
  }

  /** Like {@link #find} but fails with NOT_FOUND naming the id. */
  static <V> V require(Map<String, V> byId, String id, String kind) {
    return find(byId, id, kind).orElseThrow(() -> SimErrors.notFound(kind, id));
  }
}
