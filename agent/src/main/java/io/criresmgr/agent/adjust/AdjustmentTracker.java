package io.criresmgr.agent.adjust;

import com.google.gson.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code Adjustment} objects of the namespace as last seen, kept up to date from the watch and
 * from the answers to status patches. An object that does not parse is left out of the node's set
 * and reported once (again only if it changes and is still wrong), but kept with its error so that
 * its status can say why it is not applied.
 */
public final class AdjustmentTracker {
  private static final Logger log = LoggerFactory.getLogger(AdjustmentTracker.class);

  private final String nodeName;
  private final Map<String, Adjustment> adjustments = new HashMap<>();
  private final Map<String, String> reported = new HashMap<>();
  private final Map<String, Invalid> invalid = new HashMap<>();
  private final Map<String, String> versions = new HashMap<>();
  private boolean listed;

  /** Tracks the adjustments for node {@code nodeName}. */
  public AdjustmentTracker(String nodeName) {
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
  }

  /** After a list: these are all the objects now. */
  public synchronized void replaceAll(List<JsonObject> objects) {
    adjustments.clear();
    invalid.clear();
    versions.clear();
    objects.forEach(this::remember);
    reported.keySet().retainAll(objects.stream().map(AdjustmentParser::name).toList());
    listed = true;
  }

  /** An object was added or changed (or patched). */
  public synchronized void changed(JsonObject object) {
    remember(object);
  }

  /**
   * A status patch answered {@code object}; ignored if the watch has already shown a newer version
   * (the answer can arrive after later events). Resource versions are compared as numbers, which
   * they are in practice (etcd revisions); one that is not a number is taken as newer.
   */
  public synchronized void patched(JsonObject object) {
    OptionalLong seen = version(versions.get(AdjustmentParser.name(object)));
    OptionalLong answered = version(AdjustmentParser.resourceVersion(object));
    if (seen.isEmpty() || answered.isEmpty() || answered.getAsLong() > seen.getAsLong()) {
      remember(object);
    }
  }

  private static OptionalLong version(@Nullable String version) {
    try {
      return version == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(version));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** An object was deleted. */
  public synchronized void deleted(JsonObject object) {
    String name = AdjustmentParser.name(object);
    adjustments.remove(name);
    invalid.remove(name);
    versions.remove(name);
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
    invalid.forEach((name, i) -> status.put(name, i.nodeErrors()));
    return status;
  }

  /**
   * For each invalid object, the status entry it should have for the node: {@code request} to its
   * parse error if its scope covers the node, no entry if it does not or cannot be read.
   */
  public synchronized Map<String, Optional<Map<String, String>>> invalidStatus() {
    Map<String, Optional<Map<String, String>>> status = new HashMap<>();
    invalid.forEach(
        (name, i) ->
            status.put(
                name,
                i.coversNode() ? Optional.of(Map.of("request", i.error())) : Optional.empty()));
    return status;
  }

  private void remember(JsonObject object) {
    String name = AdjustmentParser.name(object);
    String version = AdjustmentParser.resourceVersion(object);
    if (version != null) {
      versions.put(name, version);
    }
    try {
      adjustments.put(name, AdjustmentParser.parse(object));
      invalid.remove(name);
      reported.remove(name);
    } catch (IllegalArgumentException e) {
      String reason = Objects.requireNonNullElse(e.getMessage(), e.toString());
      adjustments.remove(name);
      if (!name.isEmpty()) {
        invalid.put(name, Invalid.of(object, nodeName, reason));
      }
      if (!Objects.equals(reported.put(name, reason), reason)) {
        log.warn("ignoring invalid Adjustment {}: {}", name.isEmpty() ? "(no name)" : name, reason);
      }
    }
  }

  /** An object that does not parse: its error, whether its scope covers the node, its entry. */
  private record Invalid(
      String error, boolean coversNode, Optional<Map<String, String>> nodeErrors) {
    static Invalid of(JsonObject object, String nodeName, String error) {
      return new Invalid(
          error,
          AdjustmentParser.scopeCovers(object, nodeName).orElse(false),
          AdjustmentParser.nodeErrorsOf(object, nodeName));
    }
  }
}
