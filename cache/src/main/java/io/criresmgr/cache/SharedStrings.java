package io.criresmgr.cache;

import java.util.Map;

/**
 * One copy of each label and annotation string for the whole cache. kubelet sends every container
 * and pod its own copies of the same keys ({@code io.kubernetes.container.name}, {@code
 * io.kubernetes.pod.namespace}, ...) and often of the same values (the pod's UID and namespace,
 * {@code "0"}, {@code "File"}); decoded from each request they would be held once per container.
 * The strings go through the JVM's string table ({@link String#intern}), which holds them weakly: a
 * string no record refers to any more is collected as usual. See docs/benchmarks.md, "Issue 20:
 * resident memory (2026-11-28)".
 */
public final class SharedStrings {
  private SharedStrings() {}

  /** The shared copy of {@code value}. */
  public static String of(String value) {
    return value.intern();
  }

  /**
   * An immutable copy of {@code map} whose keys and values are the shared copies: what {@link
   * Container} and {@link Pod} keep as it is (they copy only maps that are not immutable).
   */
  @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array: Map.ofEntries takes one
  public static Map<String, String> of(Map<String, String> map) {
    if (map.isEmpty()) {
      return Map.of();
    }
    Map.Entry<String, String>[] entries = new Map.Entry[map.size()];
    int i = 0;
    for (Map.Entry<String, String> e : map.entrySet()) {
      entries[i++] = Map.entry(e.getKey().intern(), e.getValue().intern());
    }
    return Map.ofEntries(entries);
  }
}
