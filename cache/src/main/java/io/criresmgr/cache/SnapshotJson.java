package io.criresmgr.cache;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.ValuesJson.StoredAdjustmentsJson;
import io.criresmgr.cache.files.ParseLimits;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The cache file's JSON layout (docs/cache-format.md). Kept apart from the public records so they
 * need no Jackson annotations and renaming a record component cannot silently change the format.
 *
 * <p>Unknown keys are ignored, so a later build of the same version may add keys; every key this
 * build knows must be present and non-null (except {@code AgentConfig} and the adjustments, which
 * files of earlier builds lack), and the version must be {@link CacheSnapshot#VERSION}, or {@link
 * JournalJson#PATCH_VERSION}, which a journal with patches gives the replayed JSON.
 */
record SnapshotJson(
    @JsonProperty("Version") String version,
    @JsonProperty("Pods") Map<String, PodJson> pods,
    @JsonProperty("Containers") Map<String, ContainerJson> containers,
    @JsonProperty("NextID") long nextId,
    @JsonProperty("PolicyName") String policyName,
    @JsonProperty("PolicyData") Map<String, JsonNode> policyData,
    @JsonProperty("AgentConfig") @JsonSetter(nulls = Nulls.SET) @Nullable String agentConfig,
    @JsonProperty("Adjustments") @JsonSetter(nulls = Nulls.SET)
        @Nullable StoredAdjustmentsJson adjustments,
    @JsonProperty("Generation") long generation) {

  /** The mapper of the cache file and its journal (docs/cache-format.md). */
  static final JsonMapper MAPPER =
      JsonMapper.builder(ParseLimits.CACHE.jsonFactory())
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .disable(SerializationFeature.WRITE_ENUMS_USING_TO_STRING)
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .defaultSetterInfo(JsonSetter.Value.construct(Nulls.FAIL, Nulls.FAIL))
          .build();

  /**
   * The file content for {@code snapshot}: compact JSON, map keys sorted. Written field by field
   * with the mapper's generator, byte for byte what {@link #encodeWithDatabind} writes.
   */
  static byte[] encode(CacheSnapshot snapshot) throws JsonProcessingException {
    return encode(snapshot, 0);
  }

  /**
   * As {@link #encode(CacheSnapshot)}, the file naming {@code generation} as its {@code
   * Generation}.
   */
  static byte[] encode(CacheSnapshot snapshot, long generation) throws JsonProcessingException {
    return generate(g -> from(snapshot, generation).write(g));
  }

  /** What {@code writer} writes with the mapper's generator, as compact UTF-8 JSON. */
  static byte[] generate(Body body) throws JsonProcessingException {
    // As writeValueAsBytes: segments from the factory's recycled buffers, copied once at the end.
    try (ByteArrayBuilder out = new ByteArrayBuilder(MAPPER.getFactory()._getBufferRecycler())) {
      try (JsonGenerator g = MAPPER.createGenerator(out, JsonEncoding.UTF8)) {
        body.write(g);
      }
      byte[] content = out.toByteArray();
      out.release();
      return content;
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      throw JsonMappingException.fromUnexpectedIOE(e);
    }
  }

  /**
   * What {@link #encode} must write: databind's form of the same records, for the tests and the
   * benchmark comparing the two (module benchmarks, {@code SnapshotEncodeBenchmark}).
   */
  static byte[] encodeWithDatabind(CacheSnapshot snapshot) throws JsonProcessingException {
    return MAPPER.writeValueAsBytes(from(snapshot, 0));
  }

  private void write(JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("Version", version);
    StreamedJson.map(g, "Pods", pods, (out, pod) -> pod.write(out));
    StreamedJson.map(g, "Containers", containers, (out, c) -> c.write(out));
    g.writeNumberField("NextID", nextId);
    g.writeStringField("PolicyName", policyName);
    StreamedJson.map(g, "PolicyData", policyData, JsonGenerator::writeTree);
    g.writeStringField("AgentConfig", agentConfig);
    StreamedJson.nullable(g, "Adjustments", adjustments, (out, a) -> a.write(out));
    g.writeNumberField("Generation", generation);
    g.writeEndObject();
  }

  /**
   * The snapshot in {@code content}.
   *
   * @throws UnusableException saying what is wrong, as a phrase after "cache file X"
   */
  static CacheSnapshot decode(byte[] content) throws UnusableException {
    ObjectNode root = parse(content);
    checkFileVersion(root);
    return bind(root);
  }

  /**
   * The JSON object in {@code content}, not yet checked further, for a journal to be replayed onto.
   *
   * @throws UnusableException if it is no JSON object
   */
  static ObjectNode parse(byte[] content) throws UnusableException {
    JsonNode root;
    try {
      root = MAPPER.readTree(content);
    } catch (JsonProcessingException e) {
      throw new UnusableException("is corrupt (" + describe(e) + ")");
    } catch (IOException | RuntimeException e) {
      String message = e.getMessage() != null ? e.getMessage() : e.toString();
      throw new UnusableException("is corrupt (" + message + ")");
    }
    if (!(root instanceof ObjectNode object)) {
      throw new UnusableException("is corrupt (not a JSON object)");
    }
    return object;
  }

  /** The {@code Generation} of a file's {@code root} (0 in files of builds before the journal). */
  static long generation(JsonNode root) {
    JsonNode generation = root.path("Generation");
    return generation.isIntegralNumber() && generation.canConvertToLong()
        ? generation.longValue()
        : 0;
  }

  /**
   * The snapshot {@code root} (a file's content, perhaps with a journal replayed onto it) holds.
   *
   * @throws UnusableException saying what is wrong, as a phrase after "cache file X"
   */
  static CacheSnapshot bind(JsonNode root) throws UnusableException {
    try {
      checkVersion(root, true);
      addOptionalKeys(root);
      return MAPPER.treeToValue(root, SnapshotJson.class).toSnapshot();
    } catch (JsonProcessingException e) {
      throw new UnusableException("is corrupt (" + describe(e) + ")");
    } catch (RuntimeException e) {
      // Anything the content provokes makes it unusable: the daemon must start regardless.
      String message = e.getMessage() != null ? e.getMessage() : e.toString();
      throw new UnusableException("is corrupt (" + message + ")");
    }
  }

  // Keys added after the format's first release: files of earlier builds lack them.
  private static void addOptionalKeys(JsonNode root) {
    ((ObjectNode) root).putIfAbsent("Adjustments", NullNode.getInstance());
    ((ObjectNode) root).putIfAbsent("Generation", ((ObjectNode) root).numberNode(0L));
    root.path("Containers")
        .forEach(
            c -> {
              if (c instanceof ObjectNode container) {
                container.putIfAbsent("Adjustment", NullNode.getInstance());
                container.putIfAbsent("TopologyHints", container.arrayNode());
              }
            });
  }

  /**
   * Refuses a file whose own {@code Version} is not {@link CacheSnapshot#VERSION}, before its
   * journal is replayed: {@link JournalJson#PATCH_VERSION} comes only from a journal's patches
   * (docs/adr/0017), so a whole file saying it is a later build's, whatever it means there, and is
   * not read with this build's meaning.
   */
  static void checkFileVersion(JsonNode root) throws UnusableException {
    checkVersion(root, false);
  }

  // Before binding, so that a file of another version is reported as such, not as corrupt.
  private static void checkVersion(JsonNode root, boolean replayed) throws UnusableException {
    if (!root.isObject()) {
      throw new UnusableException("is corrupt (not a JSON object)");
    }
    JsonNode version = root.path("Version");
    // A journal's patches make the replayed JSON PATCH_VERSION; its snapshot is the same.
    if (!CacheSnapshot.VERSION.equals(version.textValue())
        && !(replayed && JournalJson.PATCH_VERSION.equals(version.textValue()))) {
      String found = version.isMissingNode() ? "no version" : "version " + version;
      throw new UnusableException(
          "has "
              + found
              + " instead of \""
              + CacheSnapshot.VERSION
              + "\""
              + (replayed
                  ? " (or \"" + JournalJson.PATCH_VERSION + "\" after a journal's patches)"
                  : ""));
    }
  }

  private static String describe(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      return path(mapping) + ": " + message;
    }
    JsonLocation at = e.getLocation();
    return at == null
        ? message
        : message + " at line " + at.getLineNr() + ", column " + at.getColumnNr();
  }

  // "Containers.u1:app.Pending[0]" rather than Jackson's class-qualified path reference.
  private static String path(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        path.append(path.length() > 0 ? "." : "").append(r.getFieldName());
      } else {
        path.append('[').append(r.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  private static SnapshotJson from(CacheSnapshot s, long generation) {
    return new SnapshotJson(
        s.version(),
        PodJson.convert(s.pods(), PodJson::from),
        PodJson.convert(s.containers(), ContainerJson::from),
        s.nextSeq(),
        s.activePolicy(),
        s.policyData(),
        s.agentConfig().orElse(null),
        s.adjustments().map(StoredAdjustmentsJson::from).orElse(null),
        generation);
  }

  private CacheSnapshot toSnapshot() {
    Map<String, Pod> restoredPods = PodJson.convert(pods, PodJson::toPod);
    restoredPods.forEach((key, pod) -> requireKey("Pods", key, pod.id()));
    Map<String, Container> restoredContainers =
        PodJson.convert(containers, ContainerJson::toContainer);
    restoredContainers.forEach((key, c) -> requireKey("Containers", key, c.cacheId()));
    checkConsistent(restoredPods, restoredContainers);
    // checkConsistent: every container's pod is there.
    restoredContainers.replaceAll(
        (key, c) -> sidecarFixed(c, Objects.requireNonNull(restoredPods.get(c.podId()))));
    return new CacheSnapshot(
        CacheSnapshot.VERSION, // checkVersion: this or PATCH_VERSION, the same content
        restoredPods,
        restoredContainers,
        nextId,
        policyName,
        policyData,
        Optional.ofNullable(agentConfig),
        Optional.ofNullable(adjustments).map(StoredAdjustmentsJson::toStored));
  }

  /**
   * {@code c}, no longer an init container if its pod lists it as a sidecar: a build that did not
   * know sidecars stored them as init containers, which the policies release when the next
   * container of the pod is created.
   */
  private static Container sidecarFixed(Container c, Pod pod) {
    return c.initContainer() && pod.resources().isSidecar(c.name())
        ? c.withInitContainer(false)
        : c;
  }

  /**
   * What a cache the daemon wrote always satisfies: every container belongs to a cached pod, and no
   * two containers have one runtime id. A file that breaks this was damaged or edited, and
   * restoring it would tie two records to one container.
   */
  private static void checkConsistent(Map<String, Pod> pods, Map<String, Container> containers) {
    Map<String, String> byRuntimeId = new HashMap<>();
    for (Container c : containers.values()) {
      if (!pods.containsKey(c.podId())) {
        throw new IllegalArgumentException(
            "inconsistent: Containers."
                + c.cacheId()
                + ": its pod "
                + c.podId()
                + " is not in Pods");
      }
      String other = c.id().isEmpty() ? null : byRuntimeId.putIfAbsent(c.id(), c.cacheId());
      if (other != null) {
        throw new IllegalArgumentException(
            "inconsistent: Containers."
                + other
                + " and Containers."
                + c.cacheId()
                + " have the same runtime id "
                + c.id());
      }
    }
  }

  private static void requireKey(String map, String key, String id) {
    if (!key.equals(id)) {
      throw new IllegalArgumentException(
          map + "." + key + ": the entry's id is \"" + id + "\", not its key");
    }
  }

  /** Writes a JSON value. */
  @FunctionalInterface
  interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  /** The file cannot be restored; the message is a phrase such as "is corrupt (...)". */
  static final class UnusableException extends Exception {
    private static final long serialVersionUID = 1L;

    UnusableException(String message) {
      super(message);
    }
  }
}
