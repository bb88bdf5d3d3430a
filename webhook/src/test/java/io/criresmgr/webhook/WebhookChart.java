package io.criresmgr.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The webhook's objects of the Helm chart packaging/helm/cri-resmgr, rendered by Helm in-process
 * (helm-java; nothing is downloaded) as release cri-resmgr in namespace cri-resmgr, with the agent
 * and the CRD left out.
 */
record WebhookChart(List<Map<String, Object>> objects) {
  static final Path DIR =
      Path.of(System.getProperty("basedir", "."), "..", "packaging", "helm", "cri-resmgr")
          .normalize();
  static final String NAMESPACE = "cri-resmgr";
  static final String SERVICE = "cri-resmgr-webhook";

  /** Renders with {@code values} ({@code --set}) and, if not null, a values file. */
  static WebhookChart render(Map<String, String> values, @Nullable Path valuesFile) {
    TemplateCommand command =
        new Helm(DIR).template().withName("cri-resmgr").withNamespace(NAMESPACE);
    command.set("agent.enabled", "false").set("crds.enabled", "false");
    values.forEach(command::set);
    if (valuesFile != null) {
      command.withValuesFile(valuesFile);
    }
    return new WebhookChart(parse(command.call()));
  }

  static WebhookChart render(Map<String, String> values) {
    return render(values, null);
  }

  /** The only object of {@code kind}. */
  Map<String, Object> only(String kind) {
    List<Map<String, Object>> found = all(kind);
    assertEquals(1, found.size(), kind + " objects");
    return found.get(0);
  }

  List<Map<String, Object>> all(String kind) {
    return objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
  }

  /** The value at {@code path} (map keys, or list indexes as numbers) below {@code node}. */
  static Object at(Object node, Object... path) {
    Object current = node;
    for (Object step : path) {
      current =
          step instanceof Integer i ? ((List<?>) current).get(i) : ((Map<?, ?>) current).get(step);
    }
    return current;
  }

  /** The webhook container of the Deployment. */
  Map<?, ?> container() {
    return (Map<?, ?>) at(only("Deployment"), "spec", "template", "spec", "containers", 0);
  }

  /** The MutatingWebhookConfiguration's one webhook. */
  Map<?, ?> webhook() {
    return (Map<?, ?>) at(only("MutatingWebhookConfiguration"), "webhooks", 0);
  }

  private static List<Map<String, Object>> parse(String manifests) {
    List<Map<String, Object>> all = new ArrayList<>();
    for (Object o : new org.yaml.snakeyaml.Yaml().loadAll(manifests)) {
      if (o != null) {
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) o;
        all.add(object);
      }
    }
    return List.copyOf(all);
  }
}
