package io.criresmgr.agent.adjust;

import com.google.gson.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code Adjustment} objects of the namespace as last seen, kept up to date from the watch and
 * from the answers to status patches. An object that does not parse is left out and reported once
 * (again only if it changes and is still wrong).
 */
public final class AdjustmentTracker {
  private static final Logger log = LoggerFactory.getLogger(AdjustmentTracker.class);

  private final String nodeName;
  private final Map<String, Adjustment> adjustments = new HashMap<>();
  private final Map<String, String> reported = new HashMap<>();
  private boolean listed;

  /** Tracks the adjustments for node {@code nodeName}. */
  public AdjustmentTracker(String nodeName) {
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
  }

  /** After a list: these are all the objects now. */
  public synchronized void replaceAll(List<JsonObject> objects) {
    adjustments.clear();
    objects.forEach(this::remember);
    reported.keySet().retainAll(objects.stream().map(AdjustmentParser::name).toList());
    listed = true;
  }

  /** An object was added or changed (or patched). */
  public synchronized void changed(JsonObject object) {
    remember(object);
  }

  /** An object was deleted. */
  public synchronized void deleted(JsonObject object) {
    String name = AdjustmentParser.name(object);
    adjustments.remove(name);
    reported.remove(name);
  }

  /** Whether the objects have been listed at least once (before that, nothing is known). */
  public synchronized boolean listed() {
    return listed;
  }

  /** The adjustments in scope for the node now. */
  public synchronized NodeAdjustments current() {
    return NodeAdjustments.of(nodeName, adjustments.values());
  }

  /** Each known adjustment's status entry for the node (its errors; empty: no entry). */
  public synchronized Map<String, Optional<Map<String, String>>> nodeStatus() {
    Map<String, Optional<Map<String, String>>> status = new HashMap<>();
    adjustments.forEach((name, a) -> status.put(name, a.errorsOf(nodeName)));
    return status;
  }

  private void remember(JsonObject object) {
    String name = AdjustmentParser.name(object);
    try {
      adjustments.put(name, AdjustmentParser.parse(object));
      reported.remove(name);
    } catch (IllegalArgumentException e) {
      adjustments.remove(name);
      if (!Objects.equals(reported.put(name, e.getMessage()), e.getMessage())) {
        log.warn(
            "ignoring invalid Adjustment {}: {}",
            name.isEmpty() ? "(no name)" : name,
            e.getMessage());
      }
    }
  }
}
