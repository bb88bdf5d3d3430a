package io.criresmgr.cache.affinity;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Resolves an expression key against a container and its pod (cri-resmgr {@code ResolveRef} and
 * {@code splitKeys}).
 *
 * <p>A key is a path: {@code name}, {@code namespace}, {@code qosclass}, {@code id}, {@code
 * labels/<label>}, {@code tags/<tag>} (containers have no tags here, so these never resolve),
 * {@code pod/name}, {@code pod/namespace}, {@code pod/qosclass}, {@code pod/id}, {@code pod/uid},
 * {@code pod/labels/<label>}. A key of one component containing a dot is a label ({@code
 * io.kubernetes.container.name} = {@code labels/io.kubernetes.container.name}). Unlike cri-resmgr,
 * a label name may contain {@code /} ({@code labels/app.kubernetes.io/name}), and a key whose first
 * component is no known name but contains a dot is a label too ({@code app.kubernetes.io/name}).
 *
 * <p>A joint key {@code :k1:k2} (or {@code :<ksep><vsep>k1<ksep>k2} with two punctuation
 * separators) joins the values of several keys with {@code :} (or {@code vsep}); it resolves if any
 * of them does, missing ones counting as empty.
 */
final class KeyPath {
  private static final Set<String> CONTAINER_KEYS =
      Set.of("pod", "name", "namespace", "qosclass", "labels", "tags", "id");

  private KeyPath() {}

  /** The value of {@code key} for {@code container} of {@code pod}; null if it does not resolve. */
  static @Nullable String resolve(String key, Container container, Pod pod) {
    List<String> keys = new ArrayList<>();
    String valueSeparator = split(key, keys);
    if (keys.size() == 1) {
      return single(keys.get(0), container, pod);
    }
    List<String> values = new ArrayList<>();
    boolean found = false;
    for (String k : keys) {
      String v = single(k, container, pod);
      found |= v != null;
      values.add(v == null ? "" : v);
    }
    return found ? String.join(valueSeparator, values) : null;
  }

  // Fills keys, returns the value separator.
  private static String split(String key, List<String> keys) {
    if (key.length() < 4 || key.charAt(0) != ':') {
      keys.add(key);
      return "";
    }
    String rest = key.substring(1);
    String keySeparator = ":";
    String valueSeparator = ":";
    if (separator(rest.charAt(0)) && separator(rest.charAt(1))) {
      keySeparator = rest.substring(0, 1);
      valueSeparator = rest.substring(1, 2);
      rest = rest.substring(2);
    }
    keys.addAll(List.of(rest.split(java.util.regex.Pattern.quote(keySeparator), -1)));
    return valueSeparator;
  }

  private static boolean separator(char c) {
    return !Character.isLetterOrDigit(c) && c != '/' && c != '.';
  }

  private static @Nullable String single(String key, Container container, Pod pod) {
    List<String> path = components(key);
    if (path.isEmpty()) {
      return null;
    }
    String first = path.get(0);
    if (!CONTAINER_KEYS.contains(first) && first.contains(".")) {
      return container.labels().get(String.join("/", path));
    }
    String rest = String.join("/", path.subList(1, path.size()));
    return switch (first) {
      case "pod" -> podKey(rest, pod);
      case "labels" -> label(container.labels(), rest);
      case "name" -> container.name();
      case "namespace" -> container.namespace();
      case "qosclass" -> container.qosClass().label();
      case "id" -> container.id();
      default -> null; // tags and unknown keys
    };
  }

  private static @Nullable String podKey(String key, Pod pod) {
    List<String> path = components(key);
    String first = path.isEmpty() ? "" : path.get(0);
    return switch (first) {
      case "labels" -> label(pod.labels(), String.join("/", path.subList(1, path.size())));
      case "name" -> pod.name();
      case "namespace" -> pod.namespace();
      case "qosclass" -> pod.qosClass().label();
      case "id" -> pod.id();
      case "uid" -> pod.uid();
      default -> null;
    };
  }

  private static @Nullable String label(Map<String, String> labels, String name) {
    return name.isEmpty() ? null : labels.get(name);
  }

  // The components of a path without empty and "." ones (Go's path.Clean, minus "..").
  private static List<String> components(String key) {
    List<String> out = new ArrayList<>();
    for (String c : key.split("/", -1)) {
      if (!c.isEmpty() && !c.equals(".")) {
        out.add(c);
      }
    }
    return out;
  }
}
