package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.affinity.Expression;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A balloon type's {@code GroupBy} template (nri-plugins): text with {@code ${key}} references to
 * expression keys ({@code pod/labels/app}, {@code pod/annotations/team}, {@code namespace}, ...).
 * Containers whose templates expand to the same value prefer the same balloon instance.
 *
 * @param template the template as configured, {@code ""}: no grouping
 */
record GroupBy(String template) {
  private static final String ANNOTATIONS = "pod/annotations/";

  /** No grouping. */
  static final GroupBy NONE = new GroupBy("");

  /**
   * Checks that every <code>${</code> is closed and names a key.
   *
   * @throws IllegalArgumentException naming the template and what is wrong
   */
  GroupBy {
    Objects.requireNonNull(template, "template");
    parts(template);
  }

  /** Whether a template is configured. */
  boolean enabled() {
    return !template.isEmpty();
  }

  /**
   * The group of {@code container} of {@code pod}: the template with every key replaced by its
   * value; empty if some key does not resolve (such a container is in no group, as in nri-plugins).
   */
  Optional<String> of(Container container, Pod pod) {
    StringBuilder out = new StringBuilder();
    for (Part p : parts(template)) {
      String value = p.key() ? value(p.text(), container, pod) : p.text();
      if (value == null) {
        return Optional.empty();
      }
      out.append(value);
    }
    return Optional.of(out.toString());
  }

  /**
   * The value of {@code key}: {@code pod/annotations/<name>} here (nri-plugins' groupBy examples
   * use annotations; the affinity keys of {@link Expression} do not resolve them, as in
   * cri-resmgr), every other key as {@link Expression#valueOf} resolves it.
   */
  private static @Nullable String value(String key, Container container, Pod pod) {
    if (key.startsWith(ANNOTATIONS) && key.length() > ANNOTATIONS.length()) {
      return pod.annotations().get(key.substring(ANNOTATIONS.length()));
    }
    return Expression.valueOf(key, container, pod);
  }

  private record Part(String text, boolean key) {}

  private static List<Part> parts(String template) {
    List<Part> out = new ArrayList<>();
    int at = 0;
    while (at < template.length()) {
      int open = template.indexOf("${", at);
      if (open < 0) {
        out.add(new Part(template.substring(at), false));
        break;
      }
      int close = template.indexOf('}', open);
      if (close < 0) {
        throw invalid(template, "\"${\" at " + open + " is not closed by \"}\"");
      }
      String key = template.substring(open + 2, close).trim();
      if (key.isEmpty()) {
        throw invalid(template, "empty key at " + open);
      }
      out.add(new Part(template.substring(at, open), false));
      out.add(new Part(key, true));
      at = close + 1;
    }
    return out;
  }

  private static IllegalArgumentException invalid(String template, String why) {
    return new IllegalArgumentException(
        "GroupBy: invalid template \""
            + template
            + "\": "
            + why
            + " (expected text with ${key} references such as ${pod/labels/app})");
  }
}
