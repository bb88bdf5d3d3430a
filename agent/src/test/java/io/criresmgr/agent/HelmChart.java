package io.criresmgr.agent;

import static org.junit.jupiter.api.Assertions.assertThrows;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Helm chart packaging/helm/cri-resmgr, rendered by Helm itself (helm-java runs Helm's Go code
 * in-process; nothing is downloaded) as release {@link #RELEASE} in namespace {@link #NAMESPACE},
 * as {@code helm template} does.
 */
final class HelmChart {
  static final Path DIR =
      Path.of(System.getProperty("basedir", "."), "..", "packaging", "helm", "cri-resmgr")
          .normalize();
  static final String RELEASE = "cri-resmgr";
  static final String NAMESPACE = "cri-resmgr";

  private HelmChart() {}

  /** The manifests for {@code values} (as {@code --set key=value}), over the chart's defaults. */
  static String template(Map<String, String> values) {
    return command(values).call();
  }

  /** The error Helm reports for {@code values}, which must not render. */
  static String error(Map<String, String> values) {
    return assertThrows(RuntimeException.class, () -> template(values), values.toString())
        .getMessage();
  }

  /** Every object of {@code manifests}, as maps. */
  static List<Map<String, Object>> documents(String manifests) {
    List<Map<String, Object>> all = new ArrayList<>();
    for (Object o : new org.yaml.snakeyaml.Yaml().loadAll(manifests)) {
      if (o != null) {
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) o;
        all.add(object);
      }
    }
    return all;
  }

  private static TemplateCommand command(Map<String, String> values) {
    TemplateCommand command = new Helm(DIR).template().withName(RELEASE).withNamespace(NAMESPACE);
    values.forEach(command::set);
    return command;
  }
}
