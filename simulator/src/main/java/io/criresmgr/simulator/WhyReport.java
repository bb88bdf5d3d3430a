package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code cri-resmgr show --why CONTAINER} prints (docs/ui.md, "Why here"): the explanation a
 * node model ({@code /ui/node.json}) holds for one container, found by name, id (or a prefix of
 * it), cache id, {@code pod/container} or {@code namespace/pod/container}; for a container the
 * policy refused, the refusal and its explanation.
 */
final class WhyReport {
  private WhyReport() {}

  /**
   * The lines for the container {@code query} names in {@code model}.
   *
   * @throws IllegalArgumentException naming the query when no container or refusal matches it, or
   *     when it matches containers of several pods
   */
  static List<String> lines(JsonNode model, String query) {
    List<List<String>> found = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (JsonNode pod : model.path("pods")) {
      for (JsonNode c : pod.path("containers")) {
        if (matches(query, pod, c)) {
          names.add(name(pod.path("namespace"), pod.path("name"), c.path("name")));
          found.add(placed(pod, c));
        }
      }
    }
    if (found.isEmpty()) {
      for (JsonNode r : model.path("refusals")) {
        if (refusalMatches(query, r)) {
          names.add(name(r.path("namespace"), r.path("pod"), r.path("container")));
          found.add(refused(r));
        }
      }
    }
    if (found.isEmpty()) {
      throw new IllegalArgumentException(
          "no container or refusal "
              + query
              + " (give a container name, id, pod/container or namespace/pod/container)");
    }
    if (found.size() > 1) {
      throw new IllegalArgumentException(
          query
              + " names "
              + found.size()
              + " containers: "
              + String.join(", ", names)
              + "; give pod/container or namespace/pod/container");
    }
    return found.get(0);
  }

  private static boolean matches(String query, JsonNode pod, JsonNode c) {
    String name = c.path("name").asText();
    String podName = pod.path("name").asText();
    String id = c.path("id").asText();
    return query.equals(name)
        || query.equals(c.path("cacheId").asText())
        || (!id.isEmpty() && id.startsWith(query))
        || query.equals(podName + "/" + name)
        || query.equals(pod.path("namespace").asText() + "/" + podName + "/" + name);
  }

  private static boolean refusalMatches(String query, JsonNode r) {
    String name = r.path("container").asText();
    String pod = r.path("pod").asText();
    return query.equals(name)
        || query.equals(pod + "/" + name)
        || query.equals(r.path("namespace").asText() + "/" + pod + "/" + name);
  }

  private static List<String> placed(JsonNode pod, JsonNode c) {
    List<String> out = new ArrayList<>();
    out.add(
        name(pod.path("namespace"), pod.path("name"), c.path("name"))
            + " ("
            + c.path("state").asText()
            + ", cpus "
            + orAny(c.path("cpus").asText())
            + ", mems "
            + orAny(c.path("mems").asText())
            + ")");
    JsonNode why = c.path("why");
    if (why.isMissingNode()) {
      out.add("the policy gave no explanation (placed before the daemon started?)");
    } else {
      out.addAll(explanation(why));
    }
    return out;
  }

  private static List<String> refused(JsonNode r) {
    List<String> out = new ArrayList<>();
    out.add(
        name(r.path("namespace"), r.path("pod"), r.path("container"))
            + " (refused at "
            + r.path("at").asText()
            + ")");
    out.addAll(explanation(r.path("why")));
    out.add("error: " + r.path("message").asText());
    return out;
  }

  private static List<String> explanation(JsonNode why) {
    List<String> out = new ArrayList<>();
    out.add(why.path("summary").asText());
    for (JsonNode c : why.path("candidates")) {
      out.add(
          "  "
              + c.path("name").asText()
              + ": "
              + c.path("score").asText()
              + ": "
              + c.path("verdict").asText());
    }
    return out;
  }

  private static String name(JsonNode namespace, JsonNode pod, JsonNode container) {
    return namespace.asText() + "/" + pod.asText() + "/" + container.asText();
  }

  private static String orAny(String list) {
    return list.isEmpty() ? "any" : list;
  }
}
