package io.criresmgr.proxy.core.cri;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.criresmgr.cache.LinuxResources;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The container annotation {@value #KEY}, which the daemon adds to every CreateContainer it handles
 * so that the runtime keeps what kubelet asked for: the linux resources of the request before any
 * policy rewrote them (plus unified files controllers claimed, as the cache records them). The
 * runtime returns it in {@code ContainerStatus.annotations}, so a daemon that lost its cache adopts
 * the container with its real requests instead of estimating them from the CPU shares a policy
 * wrote (docs/architecture.md, "What survives the loss of the cache"; the format in
 * docs/cache-format.md).
 *
 * <p>The value is compact JSON, version 1: {@code {"v":1,"shares":2048,"quota":200000,
 * "period":100000,"memory":268435456,"cpus":"","mems":"","unified":{"memory.high":"max"}}}, zero
 * and empty fields left out. Parsing is strict: unknown or duplicate keys, another version, a
 * fraction, a negative amount or a value over {@value #MAX_LENGTH} characters are refused.
 */
public final class RequestedAnnotation {
  /** The annotation key. */
  public static final String KEY = "cri-resource-manager.intel.com/requested-resources";

  /** The version written and the only one read. */
  static final int VERSION = 1;

  /** The longest value read; kubelet's requests are far shorter. */
  static final int MAX_LENGTH = 4096;

  private static final Set<String> KEYS =
      Set.of("v", "shares", "quota", "period", "memory", "cpus", "mems", "unified");

  private static final JsonMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();

  private static final Logger LOG = LoggerFactory.getLogger(RequestedAnnotation.class);

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private RequestedAnnotation() {}

  /**
   * What kubelet asked for when container {@code cacheId} was created, from its {@code
   * annotations}; {@code reported} (what the runtime applies now, policy decisions included) if
   * there is no readable annotation. A malformed or foreign value is logged and ignored: it never
   * fails a start. The annotation keeps the creation values, so a container kubelet resized in
   * place later gets them back; that is logged when the runtime reports another CFS quota, period
   * or memory limit (which no policy rewrites) and corrected by kubelet's next update.
   */
  public static LinuxResources requested(
      String cacheId, Map<String, String> annotations, LinuxResources reported) {
    String value = annotations.get(KEY);
    if (value == null) {
      return reported;
    }
    LinuxResources recorded;
    try {
      recorded = parse(value);
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "container {}: {}; estimating its requests from the runtime's", cacheId, e.getMessage());
      return reported;
    }
    if (resizedSince(recorded, reported)) {
      LOG.warn(
          "container {} was resized since its creation (the runtime applies quota {}, period {},"
              + " memory limit {}; created with {}, {}, {}): adopting it with its creation requests",
          cacheId,
          reported.cpuQuota(),
          reported.cpuPeriod(),
          reported.memoryLimitBytes(),
          recorded.cpuQuota(),
          recorded.cpuPeriod(),
          recorded.memoryLimitBytes());
    }
    return recorded;
  }

  private static boolean resizedSince(LinuxResources recorded, LinuxResources reported) {
    return !reported.equals(LinuxResources.NONE)
        && (recorded.cpuQuota() != reported.cpuQuota()
            || recorded.cpuPeriod() != reported.cpuPeriod()
            || recorded.memoryLimitBytes() != reported.memoryLimitBytes());
  }

  /** {@code annotations} without {@link #KEY}: the cache keeps kubelet's annotations only. */
  public static Map<String, String> without(Map<String, String> annotations) {
    if (!annotations.containsKey(KEY)) {
      return annotations;
    }
    Map<String, String> rest = new TreeMap<>(annotations);
    rest.remove(KEY);
    return rest;
  }

  /**
   * The value recording {@code requested}: written by hand, not through Jackson, because every
   * CreateContainer makes one (docs/benchmarks.md, "Issue 20: the intercepted path, a third time");
   * {@code RequestedAnnotationFormatTest} checks it is the text Jackson writes.
   */
  public static String format(LinuxResources requested) {
    StringBuilder v = new StringBuilder(64).append("{\"v\":").append(VERSION);
    putIfSet(v, "shares", requested.cpuShares());
    putIfSet(v, "quota", requested.cpuQuota());
    putIfSet(v, "period", requested.cpuPeriod());
    putIfSet(v, "memory", requested.memoryLimitBytes());
    putIfSet(v, "cpus", requested.cpusetCpus());
    putIfSet(v, "mems", requested.cpusetMems());
    if (!requested.unified().isEmpty()) {
      v.append(",\"unified\":{");
      String comma = "";
      for (Map.Entry<String, String> e : new TreeMap<>(requested.unified()).entrySet()) {
        v.append(comma);
        quoted(v, e.getKey()).append(':');
        quoted(v, e.getValue());
        comma = ",";
      }
      v.append('}');
    }
    return v.append('}').toString();
  }

  private static void putIfSet(StringBuilder v, String key, long value) {
    if (value != 0) {
      v.append(",\"").append(key).append("\":").append(value);
    }
  }

  private static void putIfSet(StringBuilder v, String key, String value) {
    if (!value.isEmpty()) {
      v.append(",\"").append(key).append("\":");
      quoted(v, value);
    }
  }

  /**
   * Appends {@code s} as a JSON string, escaped as Jackson escapes by default: quote, backslash and
   * the control characters below U+0020 (short forms where JSON has them), everything else as is.
   */
  private static StringBuilder quoted(StringBuilder v, String s) {
    v.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> v.append("\\\"");
        case '\\' -> v.append("\\\\");
        case '\b' -> v.append("\\b");
        case '\t' -> v.append("\\t");
        case '\n' -> v.append("\\n");
        case '\f' -> v.append("\\f");
        case '\r' -> v.append("\\r");
        default -> {
          if (c < 0x20) {
            v.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
          } else {
            v.append(c);
          }
        }
      }
    }
    return v.append('"');
  }

  /**
   * The linux resources recorded in {@code value}.
   *
   * @throws IllegalArgumentException saying what is wrong with the value and what is expected
   */
  public static LinuxResources parse(String value) {
    if (value.length() > MAX_LENGTH) {
      throw invalid("the value has " + value.length() + " characters, at most " + MAX_LENGTH);
    }
    if (value.isBlank()) {
      throw invalid("the value is empty");
    }
    JsonNode root;
    try {
      root = JSON.readTree(value);
    } catch (JsonProcessingException e) {
      throw invalid("not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw invalid("expected a JSON object, got " + value);
    }
    checkKeys(root);
    if (!root.has("v")) {
      throw invalid("\"v\", the format version, is missing");
    }
    long version = amount(root, "v");
    if (version != VERSION) {
      throw invalid("version " + root.get("v") + " is not supported, expected " + VERSION);
    }
    return new LinuxResources(
        amount(root, "period"),
        quota(root),
        amount(root, "shares"),
        amount(root, "memory"),
        text(root.path("cpus"), "cpus"),
        text(root.path("mems"), "mems"),
        unified(root.path("unified")));
  }

  private static void checkKeys(JsonNode root) {
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!KEYS.contains(key)) {
        throw invalid("unknown key \"" + key + "\", expected some of " + new TreeSet<>(KEYS));
      }
    }
  }

  /** The CFS quota: -1 (unlimited) is the one negative value kubelet sends. */
  private static long quota(JsonNode root) {
    JsonNode n = root.path("quota");
    return n.isIntegralNumber() && n.canConvertToLong() && n.asLong() == -1
        ? -1
        : amount(root, "quota");
  }

  private static long amount(JsonNode root, String key) {
    JsonNode n = root.path(key);
    if (n.isMissingNode()) {
      return 0;
    }
    if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0) {
      throw invalid(key + ": " + n + " is not a whole non-negative number");
    }
    return n.asLong();
  }

  private static String text(JsonNode n, String key) {
    if (n.isMissingNode()) {
      return "";
    }
    if (!n.isTextual()) {
      throw invalid(key + ": " + n + " is not a string");
    }
    return n.asText();
  }

  private static Map<String, String> unified(JsonNode n) {
    if (n.isMissingNode()) {
      return Map.of();
    }
    if (!n.isObject()) {
      throw invalid("unified: " + n + " is not an object of strings");
    }
    Map<String, String> files = new TreeMap<>();
    n.properties().forEach(e -> files.put(e.getKey(), text(e.getValue(), "unified." + e.getKey())));
    return files;
  }

  private static IllegalArgumentException invalid(String why) {
    return new IllegalArgumentException(
        "annotation "
            + KEY
            + ": "
            + why
            + " (expected e.g. {\"v\":1,\"shares\":2048,\"quota\":200000,\"period\":100000,"
            + "\"memory\":268435456})");
  }
}
