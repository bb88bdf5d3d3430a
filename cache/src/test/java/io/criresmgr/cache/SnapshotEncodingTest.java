package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SnapshotJson#encode} writes with a streaming generator exactly the bytes databind wrote
 * for the same records, so the cache file's format did not move (docs/cache-format.md).
 */
class SnapshotEncodingTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String AWKWARD = "q\"b\\s/\u0000\u001f\t\n\u007f é中😀\u2028</x>";

  @Test
  void anEmptySnapshotIsWrittenAsDatabindWroteIt() throws Exception {
    assertSameAsDatabind(new NodeCache().snapshot());
  }

  @Test
  void everyFieldIsWrittenAsDatabindWroteIt() throws Exception {
    CacheSnapshot full = Fixtures.fullSnapshot();
    assertSameAsDatabind(full);
    Container app = full.containers().get("u1:app");
    Container adjusted =
        app.withAdjustment(adjustment("gold", amounts(1, 2), Optional.empty(), 7))
            .withTopologyHints(
                List.of(
                    new TopologyHint("pci", CpuSet.parse("0-3,8"), CpuSet.of(0)),
                    new TopologyHint(AWKWARD, CpuSet.of(), CpuSet.of(1, 2))));
    Map<String, Container> containers = new HashMap<>(full.containers());
    containers.put(app.cacheId(), adjusted);
    CacheSnapshot everything =
        new CacheSnapshot(
            full.version(),
            full.pods(),
            containers,
            full.nextSeq(),
            AWKWARD,
            Map.of("test", awkwardPolicyData(), AWKWARD, NODES.arrayNode()),
            Optional.empty(),
            Optional.of(new StoredAdjustments("node-1", "{\"a\":[1,\"" + AWKWARD + "\"]}")));
    assertSameAsDatabind(everything);
    assertEquals(everything, SnapshotJson.decode(SnapshotJson.encode(everything)));
  }

  @Test
  void bigNumbersInPolicyDataAreWrittenAsDatabindWroteThem() throws Exception {
    ObjectNode numbers = NODES.objectNode();
    numbers.put("decimal", new BigDecimal("12345678901234567890.000123"));
    numbers.put("integer", BigInteger.TEN.pow(30)).put("float", 1.5f).put("min", Long.MIN_VALUE);
    CacheSnapshot s = new NodeCache().snapshot();
    assertSameAsDatabind(
        new CacheSnapshot(
            s.version(), Map.of(), Map.of(), 0, "", Map.of("n", numbers), Optional.of("")));
  }

  @Test
  void randomSnapshotsAreWrittenAsDatabindWroteThemAndReadBack() throws Exception {
    Random random = new Random(17);
    for (int i = 0; i < 300; i++) {
      CacheSnapshot s = new RandomSnapshots(random).snapshot();
      assertSameAsDatabind(s);
      assertEquals(s, SnapshotJson.decode(SnapshotJson.encode(s)), "snapshot " + i);
    }
  }

  private static void assertSameAsDatabind(CacheSnapshot s) throws Exception {
    byte[] expected = SnapshotJson.encodeWithDatabind(s);
    byte[] actual = SnapshotJson.encode(s);
    assertEquals(new String(expected, UTF_8), new String(actual, UTF_8));
    assertArrayEquals(expected, actual);
  }

  private static ObjectNode awkwardPolicyData() {
    ObjectNode data = NODES.objectNode();
    data.put("z", AWKWARD).put("a", -12).put("m", 1L << 40).put("d", -0.5e-7).putNull("n");
    data.putObject(AWKWARD).putArray("nested").add(true).add(1.5).addObject().put("k", "v");
    data.putArray("empty");
    data.putObject("none");
    return data;
  }

  private static Optional<ResourceOverride.Amounts> amounts(long request, long limit) {
    return Optional.of(new ResourceOverride.Amounts(request, limit));
  }

  private static Adjustment adjustment(
      String name,
      Optional<ResourceOverride.Amounts> cpu,
      Optional<ResourceOverride.Amounts> memory,
      long toptier) {
    Optional<ResourceOverride> resources =
        cpu.isEmpty() && memory.isEmpty()
            ? Optional.empty()
            : Optional.of(new ResourceOverride(cpu, memory));
    OptionalLong limit = toptier < 0 ? OptionalLong.empty() : OptionalLong.of(toptier);
    return new Adjustment(name, resources, AWKWARD, "", limit);
  }
}
