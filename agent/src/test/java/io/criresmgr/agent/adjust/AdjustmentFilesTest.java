package io.criresmgr.agent.adjust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import io.criresmgr.adjustment.AdjustmentSpec;
import io.criresmgr.adjustment.Operator;
import io.criresmgr.adjustment.Quantity;
import io.criresmgr.agent.kube.AdjustmentApi;
import io.criresmgr.cache.affinity.Expression;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinitionVersion;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shipped CRD and sample Adjustment agree with what the agent reads. */
class AdjustmentFilesTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final Path CRD =
      ROOT.resolve("packaging/helm/cri-resmgr/files/adjustment-crd.yaml");
  private static final Path SAMPLE = ROOT.resolve("sample-configs/external-adjustment.yaml");

  @Test
  void theSampleParses() throws IOException {
    Map<?, ?> yaml = new org.yaml.snakeyaml.Yaml().load(Files.readString(SAMPLE));
    Adjustment sample = AdjustmentParser.parse(new Gson().toJsonTree(yaml).getAsJsonObject());
    assertEquals("db-boost", sample.name());
    assertEquals("kube-system", ((Map<?, ?>) yaml.get("metadata")).get("namespace"));
    assertEquals("criresmgr.intel.com/v1alpha1", yaml.get("apiVersion"));
    assertEquals("Adjustment", yaml.get("kind"));
    AdjustmentSpec spec = sample.spec();
    assertTrue(spec.isInScope("db-1"));
    assertTrue(spec.isInScope("worker-7"));
    assertFalse(spec.isInScope("worker-8"));
    assertEquals(
        Map.of("cpu", new Quantity("2", 2000), "memory", new Quantity("4Gi", 4L << 30)),
        spec.requests());
    assertEquals(
        Map.of("cpu", new Quantity("4", 4000), "memory", new Quantity("8Gi", 8L << 30)),
        spec.limits());
    assertEquals(Optional.of("gold"), spec.rdtClass());
    assertEquals(Optional.of("high-prio"), spec.blockioClass());
    assertEquals(Optional.of(new Quantity("2Gi", 2L << 30)), spec.toptierLimit());
  }

  @Test
  void theCrdDefinesTheResourceTheAgentWatches() throws IOException {
    V1CustomResourceDefinition crd = (V1CustomResourceDefinition) Yaml.load(CRD.toFile());
    assertEquals("adjustments.criresmgr.intel.com", crd.getMetadata().getName());
    assertEquals(AdjustmentApi.GROUP, crd.getSpec().getGroup());
    assertEquals("Namespaced", crd.getSpec().getScope());
    assertEquals("Adjustment", crd.getSpec().getNames().getKind());
    assertEquals(AdjustmentApi.PLURAL, crd.getSpec().getNames().getPlural());
    assertEquals("adjustment", crd.getSpec().getNames().getSingular());
    V1CustomResourceDefinitionVersion version = crd.getSpec().getVersions().get(0);
    assertEquals(AdjustmentApi.VERSION, version.getName());
    assertTrue(version.getServed() && version.getStorage());
    assertTrue(version.getSubresources().getStatus() != null, "status subresource");
  }

  @Test
  void theCrdSchemaNamesEverySpecFieldTheParserReads() throws IOException {
    Map<?, ?> crd = new org.yaml.snakeyaml.Yaml().load(Files.readString(CRD));
    Object root = at(crd, "spec", "versions", "0", "schema", "openAPIV3Schema");
    Object spec = at(root, "properties", "spec");
    assertEquals(List.of("scope"), at(spec, "required"));
    assertEquals(Set.of("scope", "resources", "classes", "toptierLimit"), keys(spec));
    Object scope = at(spec, "properties", "scope", "items");
    assertEquals(Set.of("nodes", "containers"), keys(scope));
    Object expression = at(scope, "properties", "containers", "items");
    assertEquals(Set.of("key", "operator", "values"), keys(expression));
    assertEquals(Operator.LABELS, at(expression, "properties", "operator", "enum"));
    for (String field : List.of("requests", "limits")) {
      assertEquals(
          Set.copyOf(AdjustmentSpec.RESOURCES),
          keys(at(spec, "properties", "resources", "properties", field)));
    }
    assertEquals(Set.of("rdt", "blockio"), keys(at(spec, "properties", "classes")));
    assertEquals(Set.of("nodes"), keys(at(root, "properties", "status")));
  }

  private static Set<?> keys(Object schema) {
    return Set.copyOf(((Map<?, ?>) at(schema, "properties")).keySet());
  }

  @Test
  void theCrdStatusMapsNodesToErrors() throws IOException {
    Map<?, ?> crd = new org.yaml.snakeyaml.Yaml().load(Files.readString(CRD));
    Object errors =
        at(
            crd,
            "spec",
            "versions",
            "0",
            "schema",
            "openAPIV3Schema",
            "properties",
            "status",
            "properties",
            "nodes",
            "additionalProperties",
            "properties",
            "errors");
    assertEquals(Map.of("type", "string"), at(errors, "additionalProperties"));
  }

  /** The value at {@code path} in nested maps and lists (list indices as text). */
  private static Object at(Object root, String... path) {
    Object here = root;
    for (String step : path) {
      here =
          here instanceof List<?> l ? l.get(Integer.parseInt(step)) : ((Map<?, ?>) here).get(step);
    }
    return here;
  }

  @Test
  void theOperatorsAreTheCachesExpressionOperators() {
    assertEquals(
        Arrays.stream(Expression.Operator.values()).map(Expression.Operator::label).toList(),
        Operator.LABELS);
  }
}
