package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.SnapshotJson.UnusableException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class SnapshotJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void writesTheDocumentedKeys() throws Exception {
    JsonNode root = JSON.readTree(SnapshotJson.encode(Fixtures.fullSnapshot()));
    assertEquals(
        List.of(
            "Version",
            "Pods",
            "Containers",
            "NextID",
            "PolicyName",
            "PolicyData",
            "AgentConfig",
            "Adjustments",
            "Generation"),
        fieldNames(root));
    JsonNode app = root.path("Containers").path("u1:app");
    assertEquals(
        List.of(
            "CacheID",
            "ID",
            "PodID",
            "Name",
            "Namespace",
            "InitContainer",
            "Labels",
            "Annotations",
            "Image",
            "State",
            "LinuxReq",
            "Resources",
            "QOSClass",
            "Assignment",
            "Pending",
            "Seq",
            "Adjustment",
            "TopologyHints"),
        fieldNames(app));
    assertEquals("RUNNING", app.path("State").textValue());
    assertEquals("BURSTABLE", app.path("QOSClass").textValue());
    assertEquals("2-3,6", app.path("Assignment").path("CPUs").textValue());
    assertEquals("[\"cri\",\"rdt\"]", app.path("Pending").toString());
    assertEquals(
        List.of(
            "ID",
            "UID",
            "Name",
            "Namespace",
            "Labels",
            "Annotations",
            "CgroupParent",
            "QOSClass",
            "Resources",
            "Ready"),
        fieldNames(root.path("Pods").path("sandbox-u1")));
    assertEquals(
        "{\"CPURequestMilli\":500,\"CPULimitMilli\":1000,\"MemoryRequestBytes\":67108864,"
            + "\"MemoryLimitBytes\":134217728}",
        root.path("Pods")
            .path("sandbox-u1")
            .path("Resources")
            .path("Containers")
            .path("app")
            .toString());
    assertEquals("x", root.path("PolicyData").path("other").textValue());
  }

  @Test
  void sortsMapKeysSoEqualSnapshotsGiveEqualFiles() throws Exception {
    byte[] once = SnapshotJson.encode(Fixtures.fullSnapshot());
    byte[] again = SnapshotJson.encode(SnapshotJson.decode(once));
    assertEquals(new String(once, UTF_8), new String(again, UTF_8));
    JsonNode root = JSON.readTree(once);
    assertEquals(List.of("other", "test"), fieldNames(root.path("PolicyData")));
  }

  @Test
  void sidecarsAreReadAgainFromThePodsAnnotation() throws Exception {
    ObjectNode root = full();
    ObjectNode pod = (ObjectNode) root.path("Pods").path("sandbox-u1");
    String value = "{\"initContainers\":{\"init\":{},\"proxy\":{}},\"sidecars\":[\"proxy\"]}";
    ((ObjectNode) pod.path("Annotations")).put(PodResourcesAnnotation.KEY, value);
    PodResources restored = restoredPod(root).resources();
    assertEquals(Set.of("proxy"), restored.sidecars());
    assertEquals(
        Fixtures.fullSnapshot().pods().get("sandbox-u1").resources().initContainers(),
        restored.initContainers());
    assertFalse(JSON.writeValueAsString(pod).contains("Sidecars"), "no key of its own");
    ((ObjectNode) pod.path("Annotations")).put(PodResourcesAnnotation.KEY, "{\"sidecars\":1}");
    assertEquals(Set.of(), restoredPod(root).resources().sidecars());
  }

  @Test
  void aSidecarStoredAsAnInitContainerByAnOlderBuildIsRestoredAsNone() throws Exception {
    ObjectNode root = full();
    assertTrue(restored(root).containers().get("u1:init").initContainer());
    ObjectNode pod = (ObjectNode) root.path("Pods").path("sandbox-u1");
    ((ObjectNode) pod.path("Annotations"))
        .put(
            PodResourcesAnnotation.KEY,
            "{\"initContainers\":{\"init\":{}},\"sidecars\":[\"init\"]}");
    CacheSnapshot s = restored(root);
    assertFalse(s.containers().get("u1:init").initContainer());
    assertTrue(s.pods().get("sandbox-u1").resources().isSidecar("init"));
  }

  private static CacheSnapshot restored(ObjectNode root) throws Exception {
    return SnapshotJson.decode(JSON.writeValueAsBytes(root));
  }

  private static Pod restoredPod(ObjectNode root) throws Exception {
    return SnapshotJson.decode(JSON.writeValueAsBytes(root)).pods().get("sandbox-u1");
  }

  @Test
  void aMissingAgentConfigIsNull() throws Exception {
    CacheSnapshot empty = new NodeCache().snapshot();
    JsonNode root = JSON.readTree(SnapshotJson.encode(empty));
    assertEquals(true, root.path("AgentConfig").isNull());
    assertEquals(Optional.empty(), SnapshotJson.decode(SnapshotJson.encode(empty)).agentConfig());
  }

  @Test
  void ignoresUnknownKeys() throws Exception {
    ObjectNode root = full();
    root.put("Cfg", "from a later build");
    ((ObjectNode) root.path("Containers").path("u1:app")).put("Tags", "x");
    ((ObjectNode) root.path("Containers").path("u1:app").path("Assignment")).put("Memtierd", 1);
    assertEquals(Fixtures.fullSnapshot(), SnapshotJson.decode(JSON.writeValueAsBytes(root)));
  }

  @Test
  void aMissingVersionIsNotRestored() {
    assertEquals(
        "has no version instead of \"" + CacheSnapshot.VERSION + "\"",
        problem(root -> root.remove("Version")));
    assertEquals(
        "has version 1 instead of \"" + CacheSnapshot.VERSION + "\"",
        problem(root -> root.put("Version", 1)));
  }

  @Test
  void aWholeFileOfThePatchVersionIsNotRestored() {
    // cri-resmgr-java/2 comes only from a journal's patches: a file saying it is a later build's.
    assertEquals(
        "has version \"cri-resmgr-java/2\" instead of \"" + CacheSnapshot.VERSION + "\"",
        problem(root -> root.put("Version", "cri-resmgr-java/2")));
  }

  @Test
  void aMissingKeyIsCorrupt() {
    assertEquals(
        "is corrupt (NextID: Missing creator property 'NextID' (index 3);"
            + " `DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES` enabled)",
        problem(root -> root.remove("NextID")));
    assertEquals(
        "is corrupt (Containers.u1:app.Seq: Missing creator property 'Seq' (index 15);"
            + " `DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES` enabled)",
        problem(root -> container(root).remove("Seq")));
  }

  @Test
  void nullsAreCorrupt() {
    assertEquals(
        "is corrupt (Pods.sandbox-u1.Labels: Invalid `null` value encountered for property"
            + " \"Labels\")",
        problem(root -> ((ObjectNode) root.path("Pods").path("sandbox-u1")).putNull("Labels")));
    assertEquals(
        "is corrupt (Containers.u1:app.Labels.io.kubernetes.container.name: Invalid `null` value"
            + " encountered for property \"Labels\")",
        problem(
            root ->
                ((ObjectNode) container(root).path("Labels"))
                    .putNull("io.kubernetes.container.name")));
  }

  @Test
  void badValuesAreCorrupt() {
    String badState = problem(root -> container(root).put("State", "SLEEPING"));
    assertTrue(
        badState.startsWith(
            "is corrupt (Containers.u1:app.State: Cannot deserialize value of type"
                + " `io.criresmgr.cache.ContainerState` from String \"SLEEPING\": not one of the"
                + " values accepted for Enum class: ["),
        badState);
    assertEquals(
        "is corrupt (Containers.u1:app.Assignment.CPUs: Cannot construct instance of"
            + " `io.criresmgr.cache.CpuSet`, problem: invalid CPU list \"x\": \"x\" is not a"
            + " number or a range like 0-3 (expected a list such as 0-3,8))",
        problem(root -> ((ObjectNode) container(root).path("Assignment")).put("CPUs", "x")));
    assertEquals(
        "is corrupt (cpuRequestMilli: -1 is negative)",
        problem(
            root -> ((ObjectNode) container(root).path("Resources")).put("CPURequestMilli", -1)));
    String fraction = problem(root -> root.put("NextID", 1.5));
    assertTrue(
        fraction.startsWith(
            "is corrupt (NextID: Cannot coerce Floating-point value (1.5) to `long` value"),
        fraction);
  }

  @Test
  void pathsNameArrayElements() {
    String problem = problem(root -> ((ArrayNode) container(root).path("Pending")).addNull());
    assertTrue(problem.startsWith("is corrupt (Containers.u1:app.Pending[2]: "), problem);
  }

  @Test
  void anEntryUnderAnotherKeyIsCorrupt() {
    assertEquals(
        "is corrupt (Containers.u1:other: the entry's id is \"u1:app\", not its key)",
        problem(root -> ((ObjectNode) root.path("Containers")).set("u1:other", container(root))));
  }

  @Test
  void trailingContentIsCorrupt() throws Exception {
    byte[] content = (JSON.writeValueAsString(full()) + " {}").getBytes(UTF_8);
    UnusableException e = assertThrows(UnusableException.class, () -> SnapshotJson.decode(content));
    assertEquals(true, e.getMessage().startsWith("is corrupt (Trailing token"), e.getMessage());
  }

  @Test
  void aNonObjectIsCorrupt() {
    UnusableException e =
        assertThrows(UnusableException.class, () -> SnapshotJson.decode("[]".getBytes(UTF_8)));
    assertEquals("is corrupt (not a JSON object)", e.getMessage());
  }

  private static String problem(Consumer<ObjectNode> edit) {
    ObjectNode root = full();
    edit.accept(root);
    UnusableException e =
        assertThrows(
            UnusableException.class, () -> SnapshotJson.decode(JSON.writeValueAsBytes(root)));
    return e.getMessage();
  }

  private static ObjectNode full() {
    try {
      return (ObjectNode) JSON.readTree(SnapshotJson.encode(Fixtures.fullSnapshot()));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static ObjectNode container(ObjectNode root) {
    return (ObjectNode) root.path("Containers").path("u1:app");
  }

  private static List<String> fieldNames(JsonNode node) {
    return node.properties().stream().map(e -> e.getKey()).toList();
  }
}
