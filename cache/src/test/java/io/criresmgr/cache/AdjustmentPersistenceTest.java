package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.ResourceOverride.Amounts;
import io.criresmgr.cache.SnapshotJson.UnusableException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The adjustments in the cache file (docs/cache-format.md): written, read, and absent. */
class AdjustmentPersistenceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Adjustment FULL =
      new Adjustment(
          "fast",
          Optional.of(
              new ResourceOverride(
                  Optional.of(new Amounts(500, 2000)), Optional.of(new Amounts(1 << 20, 0)))),
          "gold",
          "slowreads",
          OptionalLong.of(1L << 30));
  private static final StoredAdjustments STORED =
      new StoredAdjustments("node-1", "{\"fast\":{\"scope\":[{}]}}");

  /** The full fixture with {@code u1:app} under {@code adjustment} and {@code stored}. */
  private static CacheSnapshot snapshot(Adjustment adjustment, Optional<StoredAdjustments> stored) {
    CacheSnapshot s = Fixtures.fullSnapshot();
    Map<String, Container> containers = new HashMap<>(s.containers());
    containers.put("u1:app", containers.get("u1:app").withAdjustment(adjustment));
    return new CacheSnapshot(
        s.version(),
        s.pods(),
        containers,
        s.nextSeq(),
        s.activePolicy(),
        s.policyData(),
        s.agentConfig(),
        stored);
  }

  private static CacheSnapshot roundTrip(CacheSnapshot s) throws Exception {
    return SnapshotJson.decode(SnapshotJson.encode(s));
  }

  @Test
  void aFullAdjustmentRoundTrips() throws Exception {
    CacheSnapshot s = snapshot(FULL, Optional.of(STORED));
    assertEquals(s, roundTrip(s));
    assertEquals(FULL, roundTrip(s).containers().get("u1:app").adjustment());
    assertEquals(Optional.of(STORED), roundTrip(s).adjustments());
  }

  @Test
  void writesTheDocumentedAdjustmentKeys() throws Exception {
    JsonNode root = JSON.readTree(SnapshotJson.encode(snapshot(FULL, Optional.of(STORED))));
    assertEquals(
        "{\"BlockIOClass\":\"slowreads\",\"CPU\":{\"Limit\":2000,\"Request\":500},"
            + "\"Memory\":{\"Limit\":0,\"Request\":1048576},\"Name\":\"fast\","
            + "\"RDTClass\":\"gold\",\"ToptierLimit\":1073741824}",
        sorted(root.path("Containers").path("u1:app").path("Adjustment")));
    assertEquals(
        "{\"JSON\":\"{\\\"fast\\\":{\\\"scope\\\":[{}]}}\",\"NodeName\":\"node-1\"}",
        sorted(root.path("Adjustments")));
  }

  @Test
  void unsetOverridesAreNull() throws Exception {
    Adjustment classes = new Adjustment("cls", Optional.empty(), "gold", "", OptionalLong.empty());
    CacheSnapshot s = snapshot(classes, Optional.empty());
    JsonNode adj =
        JSON.readTree(SnapshotJson.encode(s)).path("Containers").path("u1:app").path("Adjustment");
    assertTrue(adj.path("CPU").isNull());
    assertTrue(adj.path("Memory").isNull());
    assertTrue(adj.path("ToptierLimit").isNull());
    assertEquals(s, roundTrip(s));
  }

  @Test
  void noAdjustmentIsNull() throws Exception {
    CacheSnapshot s = snapshot(Adjustment.NONE, Optional.empty());
    JsonNode root = JSON.readTree(SnapshotJson.encode(s));
    assertTrue(root.path("Containers").path("u1:app").path("Adjustment").isNull());
    assertTrue(root.path("Adjustments").isNull());
    assertEquals(Adjustment.NONE, roundTrip(s).containers().get("u1:app").adjustment());
    assertEquals(Optional.empty(), roundTrip(s).adjustments());
  }

  @Test
  void filesOfEarlierBuildsLackTheAdjustmentKeys() throws Exception {
    ObjectNode root =
        (ObjectNode) JSON.readTree(SnapshotJson.encode(snapshot(FULL, Optional.of(STORED))));
    root.remove("Adjustments");
    root.path("Containers").forEach(c -> ((ObjectNode) c).remove("Adjustment"));
    CacheSnapshot restored = SnapshotJson.decode(JSON.writeValueAsBytes(root));
    assertEquals(Fixtures.fullSnapshot(), restored);
    assertEquals(Optional.empty(), restored.adjustments());
    restored.containers().values().forEach(c -> assertEquals(Adjustment.NONE, c.adjustment()));
  }

  @Test
  void aBadAdjustmentIsCorrupt() throws Exception {
    assertEquals(
        "is corrupt (an adjustment that overrides anything needs a name)",
        problem(adj -> adj.put("Name", "")));
    assertEquals(
        "is corrupt (the limit 100 is below the request 500)",
        problem(adj -> ((ObjectNode) adj.path("CPU")).put("Limit", 100)));
    assertEquals(
        "is corrupt (toptierLimit: -1 is negative)", problem(adj -> adj.put("ToptierLimit", -1)));
    String missing = problem(adj -> adj.remove("RDTClass"));
    assertTrue(
        missing.startsWith(
            "is corrupt (Containers.u1:app.Adjustment.RDTClass: Missing creator property"),
        missing);
  }

  @Test
  void theNodeCacheKeepsTheStoredAdjustments() {
    NodeCache cache = NodeCache.restore(snapshot(Adjustment.NONE, Optional.of(STORED)));
    assertEquals(Optional.of(STORED), cache.adjustments());
    assertEquals(Optional.of(STORED), cache.snapshot().adjustments());
    long before = cache.changes();
    cache.setAdjustments(null);
    assertEquals(Optional.empty(), cache.snapshot().adjustments());
    assertEquals(before + 1, cache.changes());
  }

  private static String problem(java.util.function.Consumer<ObjectNode> edit) throws Exception {
    ObjectNode root =
        (ObjectNode) JSON.readTree(SnapshotJson.encode(snapshot(FULL, Optional.empty())));
    edit.accept((ObjectNode) root.path("Containers").path("u1:app").path("Adjustment"));
    byte[] content = JSON.writeValueAsString(root).getBytes(UTF_8);
    return assertThrows(UnusableException.class, () -> SnapshotJson.decode(content)).getMessage();
  }

  private static String sorted(JsonNode node) throws Exception {
    return JSON.copy()
        .configure(
            com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
        .writeValueAsString(JSON.treeToValue(node, Object.class));
  }
}
