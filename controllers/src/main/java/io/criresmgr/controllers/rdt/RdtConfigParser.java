package io.criresmgr.controllers.rdt;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.StrictMapping;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/** Reads the {@code rdt} section with {@link StrictMapping}. */
final class RdtConfigParser {
  private static final List<String> SECTION_KEYS = List.of("options", "partitions");
  private static final List<String> OPTION_KEYS =
      List.of("mode", "monitoringDisabled", "l2", "l3", "mb", "nriClasses");
  private static final List<String> ALLOC_KEYS =
      List.of("l2Allocation", "l3Allocation", "mbAllocation");
  private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z0-9_.-]+");
  private static final Pattern IDS = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");
  private static final Pattern MB = Pattern.compile("(\\d{1,3})%|\\d+MBps");
  private static final String MB_ALLOWED =
      "expected a list of values such as [\"50%\"] or [\"50%\", \"1000MBps\"]";

  private RdtConfigParser() {}

  static RdtConfig parse(String path, JsonNode section) {
    StrictMapping s = StrictMapping.of(path, section, SECTION_KEYS, RdtException::new);
    StrictMapping o = mapping(s, "options", OPTION_KEYS);
    RdtMode mode = o.field("mode").map(v -> mode(o, v)).orElse(RdtMode.FULL);
    boolean monitoringDisabled =
        o.field("monitoringDisabled").map(v -> bool(o, "monitoringDisabled", v)).orElse(false);
    boolean nriClasses = o.field("nriClasses").map(v -> bool(o, "nriClasses", v)).orElse(false);
    if (nriClasses && mode != RdtMode.DISCOVERY) {
      throw new RdtException(
          o.path("nriClasses")
              + ": true needs "
              + o.path("mode")
              + " Discovery, not "
              + mode.label()
              + ": the runtime puts a container into the resctrl group named exactly like the"
              + " class, and mode "
              + mode.label()
              + (mode == RdtMode.FULL
                  ? " makes cri-resmgr's own groups " + ResctrlGroups.PREFIX + "<class>"
                  : " puts every container in the root group")
              + "; allowed: false, or true with mode Discovery");
    }
    List<RdtPartition> partitions = new ArrayList<>();
    StrictMapping ps =
        StrictMapping.of(
            s.path("partitions"),
            s.field("partitions").orElse(missing()),
            List.copyOf(keysOf(s.field("partitions"))),
            RdtException::new);
    Set<String> classNames = new HashSet<>();
    for (Map.Entry<String, JsonNode> e : new TreeMap<>(ps.fields()).entrySet()) {
      partitions.add(partition(ps.path(e.getKey()), e.getKey(), e.getValue(), classNames));
    }
    return new RdtConfig(
        mode,
        monitoringDisabled,
        optional(o, "l2"),
        optional(o, "l3"),
        optional(o, "mb"),
        partitions,
        nriClasses);
  }

  private static RdtPartition partition(
      String at, String name, JsonNode node, Set<String> classNames) {
    List<String> keys = new ArrayList<>(ALLOC_KEYS);
    keys.add("classes");
    StrictMapping p = StrictMapping.of(at, node, keys, RdtException::new);
    JsonNode classesNode = p.field("classes").orElse(missing());
    StrictMapping cs =
        StrictMapping.of(
            p.path("classes"), classesNode, keysOf(p.field("classes")), RdtException::new);
    List<RdtClass> classes = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : cs.fields().entrySet()) {
      if (!CLASS_NAME.matcher(e.getKey()).matches() || e.getKey().matches("\\.+")) {
        throw new RdtException(
            cs.path(e.getKey())
                + ": invalid class name, expected letters, digits, '_', '-' and '.' (it names"
                + " a resctrl directory)");
      }
      if (!classNames.add(e.getKey())) {
        throw new RdtException(
            cs.path(e.getKey())
                + ": duplicate class name, class names must be unique across partitions");
      }
      StrictMapping c =
          StrictMapping.of(cs.path(e.getKey()), e.getValue(), ALLOC_KEYS, RdtException::new);
      classes.add(
          new RdtClass(e.getKey(), cache(c, "l2Allocation"), cache(c, "l3Allocation"), mb(c)));
    }
    return new RdtPartition(
        name, cache(p, "l2Allocation"), cache(p, "l3Allocation"), mb(p), classes);
  }

  private static Optional<PerCacheId<CacheSpec>> cache(StrictMapping m, String key) {
    return m.field(key).map(v -> perCacheId(m.path(key), v, RdtConfigParser::cacheSpec));
  }

  private static Optional<PerCacheId<Integer>> mb(StrictMapping m) {
    return m.field("mbAllocation")
        .map(v -> perCacheId(m.path("mbAllocation"), v, RdtConfigParser::mbPercent));
  }

  private static CacheSpec cacheSpec(String at, JsonNode v) {
    CacheSpec spec = v.isTextual() ? CacheSpec.parse(v.textValue().trim()) : null;
    if (spec == null) {
      throw invalid(at, v, CacheSpec.ALLOWED);
    }
    return spec;
  }

  /** The percentage of an {@code mbAllocation} list; {@code MBps} values apply to mba_MBps only. */
  private static Integer mbPercent(String at, JsonNode v) {
    if (!v.isArray() || v.isEmpty()) {
      throw invalid(at, v, MB_ALLOWED);
    }
    Integer percent = null;
    for (JsonNode item : v) {
      var m = item.isTextual() ? MB.matcher(item.textValue().trim()) : null;
      if (m == null || !m.matches()) {
        throw invalid(at, v, MB_ALLOWED);
      }
      if (m.group(1) != null && percent == null) {
        percent = Integer.parseInt(m.group(1));
        if (percent < 1 || percent > 100) {
          throw invalid(at, v, "percentages must be from 1% to 100%");
        }
      }
    }
    if (percent == null) {
      throw invalid(
          at, v, "a percentage value is needed (MBps-only allocations are not supported)");
    }
    return percent;
  }

  /** A plain value (for all cache ids) or a mapping {@code all}/cache-id lists to values. */
  private static <T> PerCacheId<T> perCacheId(
      String at, JsonNode v, BiFunction<String, JsonNode, T> value) {
    if (!v.isObject()) {
      return PerCacheId.of(value.apply(at, v));
    }
    T all = null;
    Map<Integer, T> byId = new HashMap<>();
    for (Map.Entry<String, JsonNode> e : v.properties()) {
      String key = e.getKey().trim();
      String p = at + "." + e.getKey();
      if (key.equals("all")) {
        all = value.apply(p, e.getValue());
      } else if (IDS.matcher(key).matches()) {
        T t = value.apply(p, e.getValue());
        for (int id : ids(key)) {
          byId.put(id, t);
        }
      } else {
        throw new RdtException(
            p + ": unknown key, expected all or cache ids such as 0, 1-3 or 0,2");
      }
    }
    return new PerCacheId<>(all, byId);
  }

  private static List<Integer> ids(String list) {
    List<Integer> ids = new ArrayList<>();
    for (String part : list.split(",", -1)) {
      String[] r = part.split("-", -1);
      int lo = Integer.parseInt(r[0]);
      int hi = Integer.parseInt(r[r.length - 1]);
      for (int i = lo; i <= hi; i++) {
        ids.add(i);
      }
    }
    return ids;
  }

  private static RdtMode mode(StrictMapping o, JsonNode v) {
    return (v.isTextual() ? RdtMode.parse(v.textValue()) : Optional.<RdtMode>empty())
        .orElseThrow(() -> o.invalid("mode", v, "expected one of Full, Discovery, Disabled"));
  }

  private static boolean optional(StrictMapping o, String key) {
    StrictMapping r = mapping(o, key, List.of("optional"));
    return r.field("optional").map(v -> bool(r, "optional", v)).orElse(false);
  }

  private static boolean bool(StrictMapping m, String key, JsonNode v) {
    if (!v.isBoolean()) {
      throw m.invalid(key, v, "expected true or false");
    }
    return v.booleanValue();
  }

  private static StrictMapping mapping(StrictMapping m, String key, List<String> keys) {
    return StrictMapping.of(m.path(key), m.field(key).orElse(missing()), keys, RdtException::new);
  }

  /** The keys of a free-form mapping (names chosen by the user), so StrictMapping checks types. */
  private static List<String> keysOf(Optional<JsonNode> node) {
    List<String> keys = new ArrayList<>();
    node.filter(JsonNode::isObject)
        .ifPresent(n -> n.properties().forEach(e -> keys.add(e.getKey())));
    return keys;
  }

  private static JsonNode missing() {
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  private static RdtException invalid(String at, JsonNode v, String expected) {
    return new RdtException(StrictMapping.invalidMessage(at, v, expected));
  }
}
