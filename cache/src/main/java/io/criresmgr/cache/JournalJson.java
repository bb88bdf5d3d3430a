package io.criresmgr.cache;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.ValuesJson.StoredAdjustmentsJson;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * One batch of the cache journal (docs/cache-format.md, "The journal"): what changed between two
 * snapshots, per key, each value written as the snapshot writes it, so replaying a batch onto the
 * file's JSON gives the JSON of the newer snapshot.
 *
 * <pre>
 * {"Put":{"Pods":{id:pod},"Containers":{id:container},"PolicyData":{name:data}},
 *  "Delete":{"Pods":[id],"Containers":[id],"PolicyData":[name]},
 *  "Patch":{"Containers":{id:patch},"PolicyData":{name:patch}},
 *  "Set":{"NextID":n,"PolicyName":name,"AgentConfig":text,"Adjustments":adjustments,"Version":v}}
 * </pre>
 *
 * Each part and each section in it is present only if something in it changed. A policy's data that
 * changed inside is written as a {@link JsonPatch} when it can be, and a container whose assignment
 * or pending controllers alone changed as a patch of those; a batch with patches sets {@code
 * Version} to {@link #PATCH_VERSION}, so a build that cannot apply them, which ignores parts it
 * does not know, refuses the replayed file as one of another version
 * (docs/adr/0017-journal-diffs-inside-policy-data.md).
 */
final class JournalJson {
  /**
   * The version a batch with patches gives the file's JSON: what this build restores besides {@link
   * CacheSnapshot#VERSION}, and a build before the patches refuses.
   */
  static final String PATCH_VERSION = "cri-resmgr-java/2";

  private final SortedMap<String, Pod> pods = new TreeMap<>();
  private final SortedMap<String, Container> containers = new TreeMap<>();
  private final SortedMap<String, JsonNode> policyData = new TreeMap<>();
  private final SortedMap<String, JsonNode> policyPatches = new TreeMap<>();
  private final SortedMap<String, Reassigned> containerPatches = new TreeMap<>();
  private final SortedSet<String> deletedPods = new TreeSet<>();
  private final SortedSet<String> deletedContainers = new TreeSet<>();
  private final SortedSet<String> deletedPolicyData = new TreeSet<>();
  private final CacheSnapshot from;
  private final CacheSnapshot to;

  private JournalJson(CacheSnapshot from, CacheSnapshot to) {
    this.from = from;
    this.to = to;
    diff(from.pods(), to.pods(), pods, deletedPods);
    diff(from.containers(), to.containers(), containers, deletedContainers);
    splitContainerPatches(from.containers());
    diffPolicyData(from.policyData(), to.policyData());
  }

  /**
   * The batch that turns {@code from} into {@code to}, or null if they are equal. Records are
   * compared with {@code equals} (the same instance first), which costs far less than writing them.
   */
  static byte @Nullable [] changes(CacheSnapshot from, CacheSnapshot to)
      throws JsonProcessingException {
    JournalJson batch = new JournalJson(from, to);
    return batch.isEmpty() ? null : SnapshotJson.generate(batch::write);
  }

  private static <T> void diff(
      Map<String, T> from, Map<String, T> to, Map<String, T> put, SortedSet<String> deleted) {
    for (Map.Entry<String, T> e : to.entrySet()) {
      T old = from.get(e.getKey());
      if (old != e.getValue() && !e.getValue().equals(old)) {
        put.put(e.getKey(), e.getValue());
      }
    }
    if (from.size() + put.size() > to.size()) {
      for (String key : from.keySet()) {
        if (!to.containsKey(key)) {
          deleted.add(key);
        }
      }
    }
  }

  // A changed container whose other fields are the same gets only its assignment and pending
  // controllers written, as a patch: a decision changes those of hundreds of containers.
  private void splitContainerPatches(Map<String, Container> before) {
    var changed = containers.entrySet().iterator();
    while (changed.hasNext()) {
      Map.Entry<String, Container> e = changed.next();
      Container old = before.get(e.getKey());
      if (old != null && old.sameButAssignment(e.getValue())) {
        containerPatches.put(e.getKey(), new Reassigned(old, e.getValue()));
        changed.remove();
      }
    }
  }

  // As diff, but a changed value is patched where it can be, and compared with its key order.
  private void diffPolicyData(Map<String, JsonNode> from, Map<String, JsonNode> to) {
    for (Map.Entry<String, JsonNode> e : to.entrySet()) {
      JsonNode old = from.get(e.getKey());
      if (old == null) {
        policyData.put(e.getKey(), e.getValue());
      } else if (!JsonPatch.same(old, e.getValue())) {
        ObjectNode patch = JsonPatch.diff(old, e.getValue());
        if (patch != null) {
          policyPatches.put(e.getKey(), patch);
        } else {
          policyData.put(e.getKey(), e.getValue());
        }
      }
    }
    for (String key : from.keySet()) {
      if (!to.containsKey(key)) {
        deletedPolicyData.add(key);
      }
    }
  }

  private boolean isEmpty() {
    return pods.isEmpty()
        && containers.isEmpty()
        && policyData.isEmpty()
        && deletedPods.isEmpty()
        && deletedContainers.isEmpty()
        && deletedPolicyData.isEmpty()
        && policyPatches.isEmpty()
        && containerPatches.isEmpty()
        && !anySet();
  }

  private boolean anySet() {
    return versionSet() != null
        || from.nextSeq() != to.nextSeq()
        || !from.activePolicy().equals(to.activePolicy())
        || !from.agentConfig().equals(to.agentConfig())
        || !from.adjustments().equals(to.adjustments());
  }

  // The Version the batch sets: the patches' if there are any (the snapshots' version is the same
  // whole-file format), the newer snapshot's if it changed.
  private @Nullable String versionSet() {
    if (!policyPatches.isEmpty() || !containerPatches.isEmpty()) {
      return PATCH_VERSION;
    }
    return from.version().equals(to.version()) ? null : to.version();
  }

  private void write(JsonGenerator g) throws IOException {
    g.writeStartObject();
    if (!pods.isEmpty() || !containers.isEmpty() || !policyData.isEmpty()) {
      g.writeObjectFieldStart("Put");
      putSection(g, "Pods", pods, (out, p) -> PodJson.from(p).write(out));
      putSection(g, "Containers", containers, (out, c) -> ContainerJson.from(c).write(out));
      putSection(g, "PolicyData", policyData, JsonGenerator::writeTree);
      g.writeEndObject();
    }
    if (!deletedPods.isEmpty() || !deletedContainers.isEmpty() || !deletedPolicyData.isEmpty()) {
      g.writeObjectFieldStart("Delete");
      deleteSection(g, "Pods", deletedPods);
      deleteSection(g, "Containers", deletedContainers);
      deleteSection(g, "PolicyData", deletedPolicyData);
      g.writeEndObject();
    }
    if (!policyPatches.isEmpty() || !containerPatches.isEmpty()) {
      g.writeObjectFieldStart("Patch");
      putSection(g, "Containers", containerPatches, JournalJson::writeContainerPatch);
      putSection(g, "PolicyData", policyPatches, JsonGenerator::writeTree);
      g.writeEndObject();
    }
    if (anySet()) {
      g.writeObjectFieldStart("Set");
      writeSet(g);
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  /** A container whose assignment or pending controllers alone changed. */
  private record Reassigned(Container old, Container now) {}

  // {"Put":{"Assignment":..,"Pending":[..]}}, each only if it changed, as ContainerJson writes it.
  private static void writeContainerPatch(JsonGenerator g, Reassigned change) throws IOException {
    Container old = change.old();
    Container now = change.now();
    g.writeStartObject();
    g.writeObjectFieldStart(JsonPatch.PUT);
    if (!old.assignment().equals(now.assignment())) {
      g.writeFieldName("Assignment");
      ValuesJson.AssignmentJson.from(now.assignment()).write(g);
    }
    if (!old.pending().equals(now.pending())) {
      StreamedJson.list(g, "Pending", List.copyOf(now.pending()), JsonGenerator::writeString);
    }
    g.writeEndObject();
    g.writeEndObject();
  }

  private static <T> void putSection(
      JsonGenerator g, String name, SortedMap<String, T> put, StreamedJson.ValueWriter<T> values)
      throws IOException {
    if (!put.isEmpty()) {
      StreamedJson.map(g, name, put, values);
    }
  }

  private static void deleteSection(JsonGenerator g, String name, SortedSet<String> deleted)
      throws IOException {
    if (!deleted.isEmpty()) {
      StreamedJson.list(g, name, deleted, JsonGenerator::writeString);
    }
  }

  // The top-level values that changed, written as the snapshot writes them.
  private void writeSet(JsonGenerator g) throws IOException {
    String version = versionSet();
    if (version != null) {
      g.writeStringField("Version", version);
    }
    if (from.nextSeq() != to.nextSeq()) {
      g.writeNumberField("NextID", to.nextSeq());
    }
    if (!from.activePolicy().equals(to.activePolicy())) {
      g.writeStringField("PolicyName", to.activePolicy());
    }
    if (!from.agentConfig().equals(to.agentConfig())) {
      g.writeStringField("AgentConfig", to.agentConfig().orElse(null));
    }
    if (!from.adjustments().equals(to.adjustments())) {
      StreamedJson.nullable(
          g,
          "Adjustments",
          to.adjustments().map(StoredAdjustmentsJson::from).orElse(null),
          (out, a) -> a.write(out));
    }
  }

  /**
   * Replays the batch {@code payload} onto a cache file's JSON {@code root}.
   *
   * @throws IllegalArgumentException if it is no batch or does not fit {@code root}
   */
  static void apply(ObjectNode root, byte[] payload) throws IOException {
    JsonNode batch = SnapshotJson.MAPPER.readTree(payload);
    if (batch == null || !batch.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    JsonNode version = batch.path("Set").path("Version");
    if (isLater(version) || isLater(root.path("Version"))) {
      // A later build's batch, or one after it: only its version is taken, so that the replayed
      // JSON is refused as that version's rather than reported corrupt for a part this build
      // cannot read (its Set comes last, after the parts).
      if (version.isTextual()) {
        root.set("Version", version);
      }
      return;
    }
    for (Map.Entry<String, JsonNode> part : batch.properties()) {
      switch (part.getKey()) {
        case "Put" -> put(root, part.getValue());
        case "Delete" -> delete(root, part.getValue());
        case "Set" -> set(root, part.getValue());
        case "Patch" -> patch(root, part.getValue());
        default -> {
          // A later build's part: ignored, as unknown keys of the file are. One that must not be
          // ignored comes with a Version this build refuses, as Patch does for builds before it.
        }
      }
    }
  }

  /** A version this build does not write: neither a file's nor a journal with patches'. */
  private static boolean isLater(JsonNode version) {
    return version.isTextual()
        && !version.textValue().equals(CacheSnapshot.VERSION)
        && !version.textValue().equals(PATCH_VERSION);
  }

  private static void put(ObjectNode root, JsonNode sections) {
    for (Map.Entry<String, JsonNode> section : objectOf("Put", sections).properties()) {
      ObjectNode target = section(root, section.getKey());
      objectOf("Put." + section.getKey(), section.getValue())
          .properties()
          .forEach(e -> target.set(e.getKey(), e.getValue()));
    }
  }

  private static void delete(ObjectNode root, JsonNode sections) {
    for (Map.Entry<String, JsonNode> section : objectOf("Delete", sections).properties()) {
      ObjectNode target = section(root, section.getKey());
      String where = "Delete." + section.getKey();
      if (!section.getValue().isArray()) {
        throw new IllegalArgumentException(where + ": not a list of keys");
      }
      for (JsonNode key : section.getValue()) {
        if (!key.isTextual()) {
          throw new IllegalArgumentException(where + ": " + key + " is not a key");
        }
        target.remove(key.textValue());
      }
    }
  }

  // Containers and policy data are patched; a section this build does not know cannot be applied.
  private static void patch(ObjectNode root, JsonNode sections) {
    for (Map.Entry<String, JsonNode> section : objectOf("Patch", sections).properties()) {
      if (!section.getKey().equals("PolicyData") && !section.getKey().equals("Containers")) {
        throw new IllegalArgumentException(
            "Patch." + section.getKey() + ": unknown section, expected Containers or PolicyData");
      }
      ObjectNode target = section(root, section.getKey());
      String name = "Patch." + section.getKey();
      for (Map.Entry<String, JsonNode> e : objectOf(name, section.getValue()).properties()) {
        JsonNode value = target.get(e.getKey());
        String where = name + "." + e.getKey();
        if (value == null) {
          throw new IllegalArgumentException(where + ": not in the file's " + section.getKey());
        }
        JsonPatch.apply(value, e.getValue(), where);
      }
    }
  }

  private static void set(ObjectNode root, JsonNode values) {
    objectOf("Set", values).properties().forEach(e -> root.set(e.getKey(), e.getValue()));
  }

  private static ObjectNode section(ObjectNode root, String name) {
    JsonNode section = root.get(name);
    if (section == null) {
      return root.putObject(name); // a later build's section
    }
    if (section instanceof ObjectNode object) {
      return object;
    }
    throw new IllegalArgumentException(name + " of the cache file is not an object");
  }

  private static ObjectNode objectOf(String where, JsonNode node) {
    if (node instanceof ObjectNode object) {
      return object;
    }
    throw new IllegalArgumentException(where + ": not a JSON object");
  }
}
