package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.SnapshotJson.UnusableException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A container's topology hints in the cache file (docs/cache-format.md): written, read, absent. */
class TopologyHintPersistenceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<TopologyHint> HINTS =
      List.of(
          new TopologyHint("/dev/vfio/7", CpuSet.parse("0-7"), CpuSet.of(0)),
          new TopologyHint("/sys/devices/pci0000:80/0000:80:02.0", CpuSet.EMPTY, CpuSet.of(3)));

  private static CacheSnapshot withHints(List<TopologyHint> hints) {
    CacheSnapshot s = Fixtures.fullSnapshot();
    return Fixtures.withContainer(s, s.containers().get("u1:app").withTopologyHints(hints));
  }

  @Test
  void hintsRoundTripWithTheDocumentedKeys() throws Exception {
    byte[] encoded = SnapshotJson.encode(withHints(HINTS));
    assertEquals(
        "[{\"Provider\":\"/dev/vfio/7\",\"CPUs\":\"0-7\",\"NUMAs\":\"0\"},"
            + "{\"Provider\":\"/sys/devices/pci0000:80/0000:80:02.0\",\"CPUs\":\"\","
            + "\"NUMAs\":\"3\"}]",
        JSON.readTree(encoded).path("Containers").path("u1:app").path("TopologyHints").toString());
    assertEquals(HINTS, SnapshotJson.decode(encoded).containers().get("u1:app").topologyHints());
  }

  @Test
  void aFileWithoutHintsLoadsWithNone() throws Exception {
    ObjectNode root = (ObjectNode) JSON.readTree(SnapshotJson.encode(withHints(HINTS)));
    root.path("Containers").forEach(c -> ((ObjectNode) c).remove("TopologyHints"));
    CacheSnapshot s = SnapshotJson.decode(JSON.writeValueAsString(root).getBytes(UTF_8));
    assertEquals(List.of(), s.containers().get("u1:app").topologyHints());
  }

  @Test
  void aBadHintMakesTheFileCorrupt() throws Exception {
    JsonNode root = JSON.readTree(SnapshotJson.encode(withHints(HINTS)));
    ((ObjectNode) root.path("Containers").path("u1:app").path("TopologyHints").get(0))
        .put("CPUs", "zero");
    UnusableException e =
        assertThrows(
            UnusableException.class,
            () -> SnapshotJson.decode(JSON.writeValueAsString(root).getBytes(UTF_8)));
    assertEquals(true, e.getMessage().contains("TopologyHints"), e.getMessage());
  }
}
