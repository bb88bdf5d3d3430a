package io.criresmgr.agent;

import static io.criresmgr.agent.HelmChart.NAMESPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.criresmgr.agent.RbacGrants.ApiCall;
import io.criresmgr.agent.config.ConfigMapNames;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The chart as a whole (docs/helm.md): it lints, renders the expected objects in the expected
 * namespaces for the default values and each toggle, and turns its values into the agent's flags,
 * images and ConfigMaps. The webhook's objects are checked in the webhook module
 * (WebhookChartTest).
 */
class ChartTest {
  private static final Set<String> CLUSTER_SCOPED =
      Set.of(
          "ClusterRole",
          "ClusterRoleBinding",
          "CustomResourceDefinition",
          "MutatingWebhookConfiguration");
  private static final Set<String> IN_CONFIG_NAMESPACE = Set.of("Role", "RoleBinding", "ConfigMap");

  @Test
  void strictLintPasses() {
    LintResult lint = new Helm(HelmChart.DIR).lint().strict().call();
    assertFalse(lint.isFailed(), lint.getMessages().toString());
  }

  @Test
  void theDefaultValuesRenderTheAgentTheWebhookAndTheCrd() {
    assertEquals(
        Set.of(
            "ServiceAccount/cri-resmgr-agent",
            "ClusterRole/cri-resmgr-agent",
            "ClusterRoleBinding/cri-resmgr-agent",
            "Role/cri-resmgr-agent",
            "RoleBinding/cri-resmgr-agent",
            "DaemonSet/cri-resmgr-agent",
            "CustomResourceDefinition/adjustments.criresmgr.intel.com",
            "Secret/cri-resmgr-webhook-tls",
            "Deployment/cri-resmgr-webhook",
            "Service/cri-resmgr-webhook",
            "MutatingWebhookConfiguration/cri-resmgr"),
        kindsAndNames(Map.of()));
  }

  @Test
  void eachComponentCanBeLeftOut() {
    Set<String> all = kindsAndNames(Map.of());
    assertEquals(
        Set.of(
            "ServiceAccount/cri-resmgr-agent",
            "ClusterRole/cri-resmgr-agent",
            "ClusterRoleBinding/cri-resmgr-agent",
            "Role/cri-resmgr-agent",
            "RoleBinding/cri-resmgr-agent",
            "DaemonSet/cri-resmgr-agent"),
        difference(all, kindsAndNames(Map.of("agent.enabled", "false"))));
    assertEquals(
        Set.of(
            "Secret/cri-resmgr-webhook-tls",
            "Deployment/cri-resmgr-webhook",
            "Service/cri-resmgr-webhook",
            "MutatingWebhookConfiguration/cri-resmgr"),
        difference(all, kindsAndNames(Map.of("webhook.enabled", "false"))));
    assertEquals(
        Set.of("CustomResourceDefinition/adjustments.criresmgr.intel.com"),
        difference(all, kindsAndNames(Map.of("crds.enabled", "false"))));
  }

  @Test
  void everyObjectIsInTheReleaseOrTheConfigNamespace() {
    Map<String, String> values = Map.of("config.default.policy", "Active: none");
    for (Map<String, Object> o : HelmChart.documents(HelmChart.template(values))) {
      String kind = (String) o.get("kind");
      Object namespace = metadata(o).get("namespace");
      if (CLUSTER_SCOPED.contains(kind)) {
        assertEquals(null, namespace, kind);
      } else {
        String expected = IN_CONFIG_NAMESPACE.contains(kind) ? "kube-system" : NAMESPACE;
        assertEquals(expected, namespace, kind + " " + metadata(o).get("name"));
      }
    }
  }

  @Test
  void anEmptyConfigNamespaceIsTheReleasesAndTheRoleFollows() throws IOException {
    List<Object> objects =
        Yaml.loadAll(
            HelmChart.template(Map.of("agent.configNamespace", "", "crds.enabled", "false")));
    RbacGrants grants = new RbacGrants(objects, NAMESPACE, "cri-resmgr-agent");
    for (ApiCall call : AgentManifestsTest.calls(NAMESPACE)) {
      assertTrue(grants.allows(call), call + " is not granted");
    }
    for (ApiCall call : AgentManifestsTest.calls("kube-system")) {
      assertTrue(call.namespace() == null || !grants.allows(call), call + " is granted");
    }
    assertEquals(NAMESPACE, AgentManifestsTest.parse(agentArgs(objects)).names().namespace());
  }

  @Test
  void theConfigValuesBecomeTheConfigMapsTheAgentLooksFor() throws IOException {
    Map<String, String> values =
        Map.of(
            "agent.configMapName", "crm",
            "agent.groupLabel", "example.com/group",
            "config.default.policy.Active", "topology-aware",
            "config.groups.latency.policy", "Active: balloons",
            "config.nodes.worker-1.logger.Debug", "cache");
    String manifests = HelmChart.template(values);
    ConfigMapNames names = AgentManifestsTest.parse(agentArgs(Yaml.loadAll(manifests))).names();
    assertEquals(new ConfigMapNames("kube-system", "crm", "example.com/group", "n1"), names);
    Map<String, Object> data = configMaps(manifests);
    assertEquals(
        Set.of(names.defaultMap(), names.groupMap("latency"), "crm.node.worker-1"), data.keySet());
    assertEquals(Map.of("policy", "Active: topology-aware"), data.get(names.defaultMap()));
    assertEquals(Map.of("policy", "Active: balloons"), data.get(names.groupMap("latency")));
    assertEquals(Map.of("logger", "Debug: cache"), data.get("crm.node.worker-1"));
  }

  @Test
  void imagesComeFromTheValuesWithTheAppVersionAsTag() throws IOException {
    Map<?, ?> chart =
        new org.yaml.snakeyaml.Yaml().load(Files.readString(HelmChart.DIR.resolve("Chart.yaml")));
    String defaults = HelmChart.template(Map.of());
    assertTrue(
        defaults.contains("image: localhost/cri-resmgr-agent:" + chart.get("appVersion") + "\n"), defaults);
    String given =
        HelmChart.template(
            Map.of(
                "imageRegistry", "registry.example.com/crm/",
                "agent.image.tag", "1.2.3",
                "agent.image.pullPolicy", "Always"));
    assertTrue(given.contains("image: registry.example.com/crm/cri-resmgr-agent:1.2.3\n"), given);
    assertTrue(given.contains("imagePullPolicy: Always\n"), given);
  }

  @Test
  void nothingIsLeftUnrendered() {
    for (Map<String, String> values :
        List.of(
            Map.<String, String>of(),
            Map.of("webhook.tls.mode", "certManager"),
            Map.of("config.groups.g.policy", "Active: none", "agent.nodeSelector.a", "b"))) {
      String manifests = HelmChart.template(values);
      for (String leftOver : List.of("{{", "}}", "PLACEHOLDER", "<no value>", ": null")) {
        assertFalse(manifests.contains(leftOver), leftOver + " in " + values + ":\n" + manifests);
      }
    }
  }

  @Test
  void theCrdIsTheShippedFileKeptOnUninstall() throws IOException {
    Map<String, Object> shipped =
        new org.yaml.snakeyaml.Yaml()
            .load(Files.readString(HelmChart.DIR.resolve("files/adjustment-crd.yaml")));
    Map<String, Object> crd =
        HelmChart.documents(HelmChart.template(Map.of())).stream()
            .filter(o -> o.get("kind").equals("CustomResourceDefinition"))
            .findFirst()
            .orElseThrow();
    assertEquals(shipped.get("spec"), crd.get("spec"));
    assertEquals(Map.of("helm.sh/resource-policy", "keep"), metadata(crd).get("annotations"));
  }

  @Test
  void badValuesAreRefusedWithTheFieldAndWhatIsAllowed() {
    assertTrue(
        HelmChart.error(Map.of("config.groups.Low_Latency.policy", "x"))
            .contains(
                "config.groups: \"Low_Latency\" cannot end a ConfigMap name"
                    + " (cri-resmgr-config.group.Low_Latency): use lowercase letters, digits,"
                    + " '-' and '.'"));
    assertTrue(
        HelmChart.error(Map.of("agent.image.pullPolicy", "Sometimes"))
            .contains(
                "agent.image.pullPolicy must be one of the following: \"Always\","
                    + " \"IfNotPresent\", \"Never\""));
    assertTrue(
        HelmChart.error(Map.of("agent.imag.tag", "1"))
            .contains("agent: Additional property imag is not allowed"));
  }

  private static Set<String> kindsAndNames(Map<String, String> values) {
    Set<String> found = new TreeSet<>();
    for (Map<String, Object> o : HelmChart.documents(HelmChart.template(values))) {
      found.add(o.get("kind") + "/" + metadata(o).get("name"));
    }
    return found;
  }

  private static Set<String> difference(Set<String> all, Set<String> some) {
    Set<String> rest = new TreeSet<>(all);
    rest.removeAll(some);
    return rest;
  }

  private static Map<String, Object> configMaps(String manifests) {
    Map<String, Object> data = new java.util.TreeMap<>();
    for (Map<String, Object> o : HelmChart.documents(manifests)) {
      if (o.get("kind").equals("ConfigMap")) {
        data.put((String) metadata(o).get("name"), o.get("data"));
      }
    }
    return data;
  }

  private static String[] agentArgs(List<Object> objects) {
    return objects.stream()
        .filter(io.kubernetes.client.openapi.models.V1DaemonSet.class::isInstance)
        .map(io.kubernetes.client.openapi.models.V1DaemonSet.class::cast)
        .findFirst()
        .orElseThrow()
        .getSpec()
        .getTemplate()
        .getSpec()
        .getContainers()
        .get(0)
        .getArgs()
        .toArray(String[]::new);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> metadata(Map<String, Object> object) {
    return (Map<String, Object>) object.get("metadata");
  }
}
