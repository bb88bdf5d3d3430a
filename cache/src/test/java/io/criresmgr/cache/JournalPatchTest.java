package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Patches inside policy data (docs/cache-format.md, "Patches inside policy data"): a batch carries
 * only the keys a decision changed, replaying it gives the policy data byte for byte, and a batch
 * with patches is one a build before them refuses.
 */
class JournalPatchTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2025-01-02T03:04:05Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  @Test
  void replayingRandomEditsGivesTheWholeValueByteForByte() throws Exception {
    Random random = new Random(17);
    RandomJson json = new RandomJson(random);
    int patched = 0;
    for (int run = 0; run < 300; run++) {
      JsonNode from = json.object(5);
      JsonNode to = from;
      for (int i = random.nextInt(6); i >= 0; i--) {
        to = json.edit(to, 5);
      }
      ObjectNode patch = JsonPatch.diff(from, to);
      if (patch == null) {
        continue;
      }
      patched++;
      JsonNode replayed = parse(bytes(from)); // as the file's JSON: parsed, not shared
      JsonPatch.apply(replayed, parse(bytes(patch)), "data");
      assertEquals(new String(bytes(to), UTF_8), new String(bytes(replayed), UTF_8), "run " + run);
    }
    assertTrue(patched > 150, "patched (the others reorder keys or change type): " + patched);
  }

  @Test
  void randomEditsSavedAndLoadedGiveThePolicyDataByteForByte() throws Exception {
    Random random = new Random(2017);
    RandomJson json = new RandomJson(random);
    CacheSnapshot state = withPolicyData(Fixtures.fullSnapshot(), Map.of("p", json.object(5)));
    CacheFile file = new CacheFile(dir, CLOCK);
    file.save(state);
    int patches = 0;
    for (int i = 0; i < 400; i++) {
      Map<String, JsonNode> data = new HashMap<>(state.policyData());
      data.put("p", json.editObject(data.get("p"), 5));
      state = withPolicyData(state, data);
      long before = Files.exists(journal()) ? Files.size(journal()) : 0;
      file.save(state);
      boolean appended = Files.exists(journal()) && Files.size(journal()) > before;
      patches += appended && lastBatch().contains("\"Patch\":{\"PolicyData\"") ? 1 : 0;
      if (random.nextInt(8) == 0) {
        CacheSnapshot loaded = load();
        assertEquals(
            new String(SnapshotJson.encode(state), UTF_8),
            new String(SnapshotJson.encode(loaded), UTF_8),
            "after edit " + i);
        file = new CacheFile(dir, CLOCK); // a restart: its first save writes the whole file
      }
    }
    assertArrayEquals(SnapshotJson.encode(state), SnapshotJson.encode(load()));
    assertTrue(patches > 200, "batches with patches: " + patches);
  }

  @Test
  void aChangedGrantIsTheOnlyOneWritten() throws Exception {
    ObjectNode allocations = NODES.objectNode();
    for (int i = 0; i < 200; i++) {
      allocations.set("u" + i + ":app", grant(i));
    }
    ObjectNode before = NODES.objectNode();
    before.set("allocations", allocations);
    CacheSnapshot first = withPolicyData(Fixtures.fullSnapshot(), Map.of("topology-aware", before));

    ObjectNode changed = allocations.deepCopy();
    changed.remove("u3:app");
    ((ObjectNode) changed.get("u7:app")).put("exclusive", "9");
    changed.set("u200:app", grant(200));
    ObjectNode after = NODES.objectNode();
    after.set("allocations", changed);
    CacheSnapshot second = withPolicyData(first, Map.of("topology-aware", after));

    CacheFile file = new CacheFile(dir, CLOCK);
    file.save(first);
    file.save(second);

    assertEquals(
        "{\"Patch\":{\"PolicyData\":{\"topology-aware\":{\"Patch\":{\"allocations\":"
            + "{\"Delete\":[\"u3:app\"],\"Put\":{\"u200:app\":"
            + bytesText(grant(200))
            + "},\"Patch\":{\"u7:app\":{\"Put\":{\"exclusive\":\"9\"}}}}}}}},"
            + "\"Set\":{\"Version\":\""
            + JournalJson.PATCH_VERSION
            + "\"}}",
        lastBatch());
    assertArrayEquals(SnapshotJson.encode(second), SnapshotJson.encode(load()));
  }

  @Test
  void aContainerWhoseAssignmentAloneChangedIsWrittenAsAPatch() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    Container app = first.containers().get("u1:app");
    Assignment moved =
        new Assignment(
            CpuSet.parse("8-9"), app.assignment().mems(), 2048, -1, 100000, -1, Map.of(), "", "");
    CacheSnapshot second =
        Fixtures.withContainer(first, app.withAssignment(moved, Set.of("memory")));
    CacheSnapshot third =
        Fixtures.withContainer(second, second.containers().get("u1:app").withoutPending("cri"));
    CacheSnapshot fourth =
        Fixtures.withContainer(
            third, third.containers().get("u1:app").withState(ContainerState.EXITED));
    CacheFile file = new CacheFile(dir, CLOCK);
    file.save(first);

    file.save(second);
    assertEquals(
        "{\"Patch\":{\"Containers\":{\"u1:app\":{\"Put\":{\"Assignment\":{\"CPUs\":\"8-9\","
            + "\"Mems\":\""
            + moved.mems()
            + "\",\"CPUShares\":2048,\"CPUQuota\":-1,"
            + "\"CPUPeriod\":100000,\"MemoryLimitInBytes\":-1,\"Unified\":{},"
            + "\"RDTClass\":\"\",\"BlockIOClass\":\"\"},"
            + "\"Pending\":[\"cri\",\"memory\",\"rdt\"]}}}},"
            + "\"Set\":{\"Version\":\"cri-resmgr-java/2\"}}",
        lastBatch());
    file.save(third);
    assertEquals(
        "{\"Patch\":{\"Containers\":{\"u1:app\":{\"Put\":{\"Pending\":[\"memory\",\"rdt\"]}}}},"
            + "\"Set\":{\"Version\":\"cri-resmgr-java/2\"}}",
        lastBatch());
    assertArrayEquals(SnapshotJson.encode(third), SnapshotJson.encode(load()));
    file.save(fourth); // another field: the container whole
    assertTrue(lastBatch().startsWith("{\"Put\":{\"Containers\":{\"u1:app\":{\"CacheID\""));
    assertEquals(fourth, load());
  }

  @Test
  void aBalloonsContainerIsTheOnlyOneWritten() throws Exception {
    JsonNode before =
        parse(
            "{\"placementKey\":\"k\",\"balloons\":[{\"type\":\"default\",\"index\":0,\"cpus\":\"0\","
                + "\"containers\":{\"a\":500,\"b\":250}},{\"type\":\"app\",\"index\":1,"
                + "\"cpus\":\"1-2\",\"containers\":{\"c\":1000}}]}");
    ObjectNode after = (ObjectNode) before.deepCopy();
    ObjectNode second = (ObjectNode) after.get("balloons").get(1);
    second.put("cpus", "1-3");
    ((ObjectNode) second.get("containers")).put("d", 2000);

    ObjectNode patch = Objects.requireNonNull(JsonPatch.diff(before, after));

    assertEquals(
        "{\"Patch\":{\"balloons\":{\"Patch\":{\"1\":{\"Put\":{\"cpus\":\"1-3\"},"
            + "\"Patch\":{\"containers\":{\"Put\":{\"d\":2000}}}}}}}}",
        patch.toString());
  }

  @Test
  void aListThatGrowsOrShrinksIsSplicedAfterItsPairedElements() throws Exception {
    // A balloon added between others (balloons' PER_NAMESPACE): only it is written.
    assertEquals(
        "{\"Splice\":[1,0,[{\"n\":9}]]}",
        patch("[{\"n\":1},{\"n\":2}]", "[{\"n\":1},{\"n\":9},{\"n\":2}]"));
    // One removed, and the first changed inside.
    assertEquals(
        "{\"Splice\":[1,1,[]],\"Patch\":{\"0\":{\"Put\":{\"n\":0}}}}",
        patch("[{\"n\":1},{\"n\":2},{\"n\":3}]", "[{\"n\":0},{\"n\":3}]"));
    assertEquals("{\"Splice\":[2,0,[3]]}", patch("[1,2]", "[1,2,3]"));
    assertEquals("{\"Splice\":[0,2,[]]}", patch("[1,2]", "[]"));
  }

  @Test
  void whatPatchesCannotSayIsWrittenWhole() throws Exception {
    JsonNode object = parse("{\"a\":1,\"b\":2}");
    // A new key before a kept one, and kept keys in another order: a patch appends new keys.
    assertNull(JsonPatch.diff(object, parse("{\"c\":3,\"a\":1,\"b\":2}")));
    assertNull(JsonPatch.diff(object, parse("{\"b\":2,\"a\":1}")));
    // Another type, a scalar.
    assertNull(JsonPatch.diff(object, parse("[1,2]")));
    assertNull(JsonPatch.diff(parse("1"), parse("2")));
    // Five levels deep: the fourth is put whole.
    assertEquals(
        "{\"Patch\":{\"a\":{\"Patch\":{\"b\":{\"Patch\":{\"c\":{\"Put\":{\"d\":{\"e\":2}}}}}}}}}",
        Objects.requireNonNull(
                JsonPatch.diff(
                    parse("{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":1}}}}}"),
                    parse("{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":2}}}}}")))
            .toString());
    // Key order counts as a change, which JsonNode.equals does not see.
    assertTrue(object.equals(parse("{\"b\":2,\"a\":1}")));
    assertFalse(JsonPatch.same(object, parse("{\"b\":2,\"a\":1}")));
  }

  @Test
  void aPatchThatDoesNotFitIsRefusedNamingWhere() throws Exception {
    assertEquals(
        "data.Delete: \"x\" is not a key of the value",
        refusal("{\"a\":1}", "{\"Delete\":[\"x\"]}"));
    assertEquals(
        "data.Patch: x is not a key of the value", refusal("{\"a\":1}", "{\"Patch\":{\"x\":{}}}"));
    assertEquals(
        "data.a: a patch for an object or a list, found number",
        refusal("{\"a\":1}", "{\"Patch\":{\"a\":{}}}"));
    assertEquals(
        "data.Put: 2 is not an index of the list (0 to 1)",
        refusal("[1,2]", "{\"Put\":{\"2\":3}}"));
    assertEquals(
        "data.Put: 01 is not an index of the list (0 to 1)",
        refusal("[1,2]", "{\"Put\":{\"01\":3}}"));
    assertEquals(
        "data.Delete: unknown part of a list's patch, expected Splice, Put or Patch",
        refusal("[1,2]", "{\"Delete\":[\"0\"]}"));
    assertEquals(
        "data.Splice: removes 2 at 1 from a list of 2", refusal("[1,2]", "{\"Splice\":[1,2,[]]}"));
    assertEquals(
        "data.Splice: not [index, count removed, [inserted]]",
        refusal("[1,2]", "{\"Splice\":[1,0]}"));
    assertEquals(
        "data.Splice: must come first, before Put and Patch",
        refusal("[1,2]", "{\"Put\":{\"0\":3},\"Splice\":[0,0,[]]}"));
    assertEquals(
        "data.Move: unknown part, expected Delete, Put or Patch",
        refusal("{\"a\":1}", "{\"Move\":{}}"));
  }

  @Test
  void aBatchWithPatchesSetsTheVersionABuildBeforeThemRefuses() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    ObjectNode data = ((ObjectNode) first.policyData().get("test")).deepCopy();
    ((ObjectNode) data.get("allocations")).put("u1:app", "4");
    CacheSnapshot second =
        withPolicyData(first, Map.of("test", data, "other", NODES.textNode("y")));
    CacheFile file = new CacheFile(dir, CLOCK);
    file.save(first);
    file.save(second);

    String batch = lastBatch();
    assertTrue(batch.contains("\"Set\":{\"Version\":\"cri-resmgr-java/2\"}"), batch);
    // What a build before the patches does with it: the parts it knows (it ignores Patch), then its
    // version check, which this build's SnapshotJsonTest shows for versions it does not know.
    ObjectNode root = SnapshotJson.parse(Files.readAllBytes(dir.resolve("cache")));
    ObjectNode oldParts = (ObjectNode) parse(batch);
    oldParts.remove("Patch");
    JournalJson.apply(root, bytes(oldParts));
    assertEquals("cri-resmgr-java/2", root.path("Version").textValue());
    assertEquals("\"y\"", root.path("PolicyData").path("other").toString());
    assertEquals(second, load());
  }

  @Test
  void aJournalOfALaterVersionIsRefusedAndMovedAside() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    CacheFile file = new CacheFile(dir, CLOCK);
    file.save(first);
    byte[] later = "{\"Set\":{\"Version\":\"cri-resmgr-java/3\"},\"Splice\":{}}".getBytes(UTF_8);
    Files.write(dir.resolve("cache.journal"), JournalFrames.frame(generation(), later));

    CacheFile.LoadResult result = new CacheFile(dir, CLOCK).load();

    assertEquals(Optional.empty(), result.snapshot());
    String problem = result.problem().orElseThrow();
    assertTrue(
        problem.contains(
            "has version \"cri-resmgr-java/3\" instead of \"" + CacheSnapshot.VERSION + "\""),
        problem);
    assertTrue(problem.contains("its journal to "), problem);
  }

  @Test
  void aLaterVersionsPartsThisBuildCannotReadAreNotReportedAsCorruption() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    CacheFile file = new CacheFile(dir, CLOCK);
    file.save(first);
    // its Set comes last, after a patch of a section this build does not patch
    byte[] later =
        "{\"Patch\":{\"Pods\":{\"x\":{}}},\"Set\":{\"Version\":\"cri-resmgr-java/3\"}}"
            .getBytes(UTF_8);
    byte[] after = "{\"Patch\":{\"Gone\":[1]}}".getBytes(UTF_8);
    Files.write(
        dir.resolve("cache.journal"),
        concat(JournalFrames.frame(generation(), later), JournalFrames.frame(generation(), after)));

    String problem = new CacheFile(dir, CLOCK).load().problem().orElseThrow();

    assertTrue(
        problem.contains(
            "has version \"cri-resmgr-java/3\" instead of \"" + CacheSnapshot.VERSION + "\""),
        problem);
    assertFalse(problem.contains("is corrupt"), problem);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  @Test
  void aWholeFileSayingThePatchVersionIsRefusedAndMovedAside() throws Exception {
    new CacheFile(dir, CLOCK).save(Fixtures.fullSnapshot());
    Path cache = dir.resolve("cache");
    String content = Files.readString(cache);
    String versioned = "\"Version\":\"" + CacheSnapshot.VERSION + "\"";
    assertTrue(content.contains(versioned), content);
    Files.writeString(
        cache, content.replace(versioned, "\"Version\":\"" + JournalJson.PATCH_VERSION + "\""));

    CacheFile.LoadResult result = new CacheFile(dir, CLOCK).load();

    assertEquals(Optional.empty(), result.snapshot());
    String problem = result.problem().orElseThrow();
    assertTrue(
        problem.contains(
            "has version \"cri-resmgr-java/2\" instead of \"" + CacheSnapshot.VERSION + "\""),
        problem);
  }

  @Test
  void aTornOrDamagedBatchWithPatchesLoadsTheStateBeforeIt() throws Exception {
    Random random = new Random(5);
    RandomJson json = new RandomJson(random);
    CacheSnapshot first = withPolicyData(Fixtures.fullSnapshot(), Map.of("p", json.object(4)));
    CacheFile file = new CacheFile(dir, CLOCK);
    file.save(first);
    CacheSnapshot second = first;
    CacheSnapshot third = first;
    long lastFrame = 0;
    // Edits until the journal holds two batches with patches: second before the last, third after.
    for (int patches = 0; patches < 2; ) {
      second = third;
      lastFrame = Files.exists(journal()) ? Files.size(journal()) : 0;
      third = withPolicyData(third, Map.of("p", json.editObject(third.policyData().get("p"), 4)));
      file.save(third);
      boolean appended = Files.exists(journal()) && Files.size(journal()) > lastFrame;
      patches += appended && lastBatch().contains("\"Patch\"") ? 1 : 0;
    }
    byte[] whole = Files.readAllBytes(journal());
    for (int cut = (int) lastFrame; cut < whole.length; cut++) {
      Files.write(journal(), Arrays.copyOf(whole, cut));
      assertArrayEquals(
          SnapshotJson.encode(second), SnapshotJson.encode(load()), "journal cut at " + cut);
    }
    for (int at = (int) lastFrame; at < whole.length; at++) {
      byte[] damaged = whole.clone();
      damaged[at] ^= 0x20;
      Files.write(journal(), damaged);
      assertArrayEquals(
          SnapshotJson.encode(second), SnapshotJson.encode(load()), "byte " + at + " damaged");
    }
    Files.write(journal(), whole);
    assertArrayEquals(SnapshotJson.encode(third), SnapshotJson.encode(load()));
  }

  /**
   * A file and journal written by the build before the patches (main at 358b854, {@code
   * CacheFile.save} of four snapshots; see the resource's README): they load as they did.
   */
  @Test
  void aFileAndJournalOfTheBuildBeforePatchesLoad() throws Exception {
    for (String name : List.of("cache", "cache.journal")) {
      try (InputStream in = resource("journal-v1/" + name)) {
        Files.write(dir.resolve(name), in.readAllBytes());
      }
    }
    CacheSnapshot loaded = load();
    byte[] expected;
    try (InputStream in = resource("journal-v1/expected.json")) {
      expected = in.readAllBytes();
    }
    assertEquals(
        new String(expected, UTF_8).strip(), new String(SnapshotJson.encode(loaded, 1), UTF_8));
  }

  private static InputStream resource(String name) {
    return Objects.requireNonNull(
        JournalPatchTest.class.getResourceAsStream(name), "test resource " + name);
  }

  private static String patch(String from, String to) throws Exception {
    ObjectNode patch = Objects.requireNonNull(JsonPatch.diff(parse(from), parse(to)));
    JsonNode replayed = parse(from);
    JsonPatch.apply(replayed, parse(bytes(patch)), "data");
    assertEquals(to, replayed.toString());
    return patch.toString();
  }

  private static String refusal(String target, String patch) throws Exception {
    JsonNode node = parse(target);
    JsonNode p = parse(patch);
    return assertThrows(IllegalArgumentException.class, () -> JsonPatch.apply(node, p, "data"))
        .getMessage();
  }

  private CacheSnapshot load() {
    CacheFile.LoadResult result = new CacheFile(dir, CLOCK).load();
    assertEquals(Optional.empty(), result.problem());
    return result.snapshot().orElseThrow();
  }

  private Path journal() {
    return dir.resolve("cache.journal");
  }

  private String lastBatch() throws Exception {
    List<String> lines = Files.readAllLines(journal(), UTF_8);
    return lines.get(lines.size() - 1).split(" ", 4)[3];
  }

  private long generation() throws Exception {
    return SnapshotJson.generation(SnapshotJson.parse(Files.readAllBytes(dir.resolve("cache"))));
  }

  private static ObjectNode grant(int i) {
    ObjectNode g = NODES.objectNode();
    g.put("pool", "socket #" + (i % 2));
    g.put("kind", i % 3 == 0 ? "exclusive" : "shared");
    g.put("exclusive", i % 3 == 0 ? Integer.toString(i) : "");
    g.put("fraction", 100 + i);
    g.putObject("memory").put("DRAM", 1 << 20).put("PMEM", 0);
    return g;
  }

  private static String bytesText(JsonNode node) throws Exception {
    return new String(bytes(node), UTF_8);
  }

  private static byte[] bytes(JsonNode node) throws Exception {
    return SnapshotJson.MAPPER.writeValueAsBytes(node);
  }

  private static JsonNode parse(byte[] content) throws Exception {
    return SnapshotJson.MAPPER.readTree(content);
  }

  private static JsonNode parse(String content) throws Exception {
    return SnapshotJson.MAPPER.readTree(content);
  }

  private static CacheSnapshot withPolicyData(CacheSnapshot s, Map<String, JsonNode> data) {
    return new CacheSnapshot(
        s.version(),
        s.pods(),
        s.containers(),
        s.nextSeq(),
        s.activePolicy(),
        data,
        s.agentConfig(),
        s.adjustments());
  }
}
