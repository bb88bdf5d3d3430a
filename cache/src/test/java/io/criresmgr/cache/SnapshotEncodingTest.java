package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
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
      CacheSnapshot s = new Snapshots(random).snapshot();
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

  /** Random snapshots the daemon could have written, from one seeded {@link Random}. */
  private static final class Snapshots {
    private static final String[] PIECES = {
      "a", "Z", "0", "-", ".", "/", ":", "%", " ", "\"", "\\", "\u0001", "\n", "é", "中", "😀", ""
    };
    private final Random random;
    private final Set<String> runtimeIds = new HashSet<>();

    Snapshots(Random random) {
      this.random = random;
    }

    CacheSnapshot snapshot() {
      Map<String, Pod> pods = new HashMap<>();
      Map<String, Container> containers = new HashMap<>();
      for (int p = random.nextInt(4); p > 0; p--) {
        Pod pod = pod();
        pods.put(pod.id(), pod);
        for (int c = random.nextInt(4); c > 0; c--) {
          Container container = container(pod);
          containers.put(container.cacheId(), container);
        }
      }
      return new CacheSnapshot(
          CacheSnapshot.VERSION,
          pods,
          containers,
          random.nextLong() & Long.MAX_VALUE,
          text(),
          map(this::policyData),
          random.nextBoolean() ? Optional.empty() : Optional.of(text()),
          random.nextBoolean()
              ? Optional.empty()
              : Optional.of(new StoredAdjustments(text(), text())));
    }

    private Pod pod() {
      return new Pod(
          "sandbox-" + text(),
          "uid-" + text(),
          text(),
          text(),
          map(this::text),
          map(this::text),
          text(),
          pick(QosClass.values()),
          new PodResources(map(this::resources), map(this::resources)),
          random.nextBoolean());
    }

    private Container container(Pod pod) {
      String runtimeId = random.nextInt(4) == 0 ? "" : "c-" + runtimeIds.size();
      runtimeIds.add(runtimeId);
      String name = text();
      return Container.builder()
          .cacheId(Container.cacheId(pod.uid(), name))
          .id(runtimeId)
          .podId(pod.id())
          .name(name)
          .namespace(text())
          .initContainer(random.nextBoolean())
          .labels(map(this::text))
          .annotations(map(this::text))
          .image(text())
          .state(pick(ContainerState.values()))
          .requested(
              new LinuxResources(
                  number(), number(), number(), number(), text(), text(), map(this::text)))
          .resources(resources())
          .qosClass(pick(QosClass.values()))
          .assignment(assignment())
          .pending(new HashSet<>(list(this::text)))
          .seq(random.nextLong() & Long.MAX_VALUE)
          .adjustment(random.nextBoolean() ? Adjustment.NONE : adjustment())
          .topologyHints(list(() -> new TopologyHint(text(), cpus(), cpus())))
          .build();
    }

    private Assignment assignment() {
      return new Assignment(
          cpus(), cpus(), number(), number(), number(), number(), map(this::text), text(), text());
    }

    private Adjustment adjustment() {
      return new Adjustment(
          "adj-" + text(),
          random.nextBoolean() ? Optional.empty() : Optional.of(resourceOverride()),
          text(),
          text(),
          random.nextBoolean() ? OptionalLong.empty() : OptionalLong.of(natural()));
    }

    private ResourceOverride resourceOverride() {
      Optional<ResourceOverride.Amounts> cpu = random.nextBoolean() ? Optional.empty() : amounts();
      return new ResourceOverride(cpu, cpu.isEmpty() || random.nextBoolean() ? amounts() : cpu);
    }

    private Optional<ResourceOverride.Amounts> amounts() {
      long request = natural();
      return Optional.of(new ResourceOverride.Amounts(request, request + natural()));
    }

    private Resources resources() {
      return new Resources(natural(), natural(), natural(), natural());
    }

    private CpuSet cpus() {
      List<Integer> ids = new ArrayList<>();
      for (int n = random.nextInt(6); n > 0; n--) {
        ids.add(random.nextInt(128));
      }
      return CpuSet.of(ids);
    }

    /** A policy's data: any JSON but a bare null, which the file does not allow there. */
    private JsonNode policyData() {
      JsonNode data = node(2);
      return data.isNull() ? NODES.textNode("null") : data;
    }

    private JsonNode node(int depth) {
      return switch (random.nextInt(depth > 0 ? 9 : 7)) {
        case 0 -> NODES.textNode(text());
        case 1 -> NODES.numberNode(random.nextInt());
        case 2 -> NODES.numberNode(random.nextLong() | (1L << 40));
        case 3 -> NODES.numberNode(random.nextDouble() * 1e6 - 5e5);
        case 4 -> NODES.booleanNode(random.nextBoolean());
        case 5 -> NODES.nullNode();
        case 6 -> NODES.textNode("");
        case 7 -> NODES.arrayNode().addAll(list(() -> node(depth - 1)));
        default -> {
          ObjectNode o = NODES.objectNode(); // insertion order, not sorted: as databind keeps it
          list(this::text).forEach(key -> o.set(key, node(depth - 1)));
          yield o;
        }
      };
    }

    private <T> Map<String, T> map(Supplier<T> values) {
      Map<String, T> map = new HashMap<>();
      for (int n = random.nextInt(5); n > 0; n--) {
        map.put(text(), values.get());
      }
      return map;
    }

    private <T> List<T> list(Supplier<T> values) {
      List<T> list = new ArrayList<>();
      for (int n = random.nextInt(4); n > 0; n--) {
        list.add(values.get());
      }
      return list;
    }

    private String text() {
      StringBuilder text = new StringBuilder();
      for (int n = random.nextInt(6); n > 0; n--) {
        text.append(pick(PIECES));
      }
      return text.toString();
    }

    private long number() {
      return switch (random.nextInt(3)) {
        case 0 -> -1;
        case 1 -> random.nextInt(1 << 20);
        default -> random.nextLong();
      };
    }

    private long natural() {
      return random.nextInt(3) == 0 ? random.nextLong() >>> 2 : random.nextInt(100000);
    }

    private <T> T pick(T[] values) {
      return values[random.nextInt(values.length)];
    }
  }
}
