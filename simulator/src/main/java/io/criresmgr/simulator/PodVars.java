package io.criresmgr.simulator;

import io.criresmgr.cache.Quantities;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The variables of a {@code create} or {@code set} step, named after the reference e2e suites'
 * template variables ({@code CPU}, {@code MEM}, {@code CPUREQ}, {@code CPULIM}, {@code MEMREQ},
 * {@code MEMLIM}, {@code CONTCOUNT}, {@code ICONTCOUNT}, and the multi-container template's {@code
 * CPUREQLIM} and {@code INITCPUREQLIM}; keys in either case), and {@code SIDECARCOUNT}: how many of
 * the first init containers are native sidecars. A value given as {@code ""} or {@code null} unsets
 * the variable. Absent variables keep the values of earlier {@code set} steps, else {@link
 * #DEFAULTS}.
 *
 * @param values scalar variables as written
 * @param annotations pod annotations, if given (replacing earlier ones as a whole)
 * @param labels pod labels, if given
 * @param containerAnnotations CRI annotations per container name, if given
 * @param containerNames container names replacing {@code <pod>c<i>}, if given (then {@code
 *     CONTCOUNT} is their number)
 * @param devices host paths of devices every container gets, if given
 * @param mounts host paths every container mounts writable, if given
 */
record PodVars(
    Map<Var, String> values,
    Optional<Map<String, String>> annotations,
    Optional<Map<String, String>> labels,
    Optional<Map<String, Map<String, String>>> containerAnnotations,
    Optional<List<String>> containerNames,
    Optional<List<String>> devices,
    Optional<List<String>> mounts) {

  /** A scalar variable. */
  enum Var {
    TEMPLATE,
    NAME,
    NAMESPACE,
    CONTCOUNT,
    ICONTCOUNT,
    CPU,
    MEM,
    CPUREQ,
    CPULIM,
    MEMREQ,
    MEMLIM,
    CPUREQLIM,
    INITCPUREQLIM,
    SIDECARCOUNT;

    String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static final String ANNOTATIONS = "annotations";
  static final String LABELS = "labels";
  static final String CONTAINER_ANNOTATIONS = "container-annotations";
  static final String CONTAINERS = "containers";
  static final String DEVICES = "devices";
  static final String MOUNTS = "mounts";

  /** The reference's defaults: {@code CPU=1 MEM=100M CPUREQ=1 CPULIM=2 MEMREQ=100M ...}. */
  static final PodVars DEFAULTS =
      new PodVars(
          Map.of(
              Var.TEMPLATE, "guaranteed",
              Var.NAMESPACE, "default",
              Var.CONTCOUNT, "1",
              Var.ICONTCOUNT, "0",
              Var.CPU, "1",
              Var.MEM, "100M",
              Var.CPUREQ, "1",
              Var.CPULIM, "2",
              Var.MEMREQ, "100M",
              Var.MEMLIM, "200M"),
          Optional.of(Map.of()),
          Optional.of(Map.of()),
          Optional.of(Map.of()),
          Optional.empty(),
          Optional.of(List.of()),
          Optional.of(List.of()));

  /** Copies the maps. */
  PodVars {
    values = values.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(values));
    annotations = annotations.map(Map::copyOf);
    labels = labels.map(Map::copyOf);
    containerAnnotations = containerAnnotations.map(Map::copyOf);
    containerNames = containerNames.map(List::copyOf);
    devices = devices.map(List::copyOf);
    mounts = mounts.map(List::copyOf);
  }

  /** These variables overridden by the ones {@code over} gives. */
  PodVars then(PodVars over) {
    Map<Var, String> merged = new EnumMap<>(Var.class);
    merged.putAll(values);
    merged.putAll(over.values);
    return new PodVars(
        merged,
        over.annotations.or(() -> annotations),
        over.labels.or(() -> labels),
        over.containerAnnotations.or(() -> containerAnnotations),
        over.containerNames.or(() -> containerNames),
        over.devices.or(() -> devices),
        over.mounts.or(() -> mounts));
  }

  /** The value of {@code var}, empty when unset. */
  Optional<String> get(Var var) {
    return Optional.ofNullable(values.get(var)).filter(v -> !v.isEmpty());
  }

  /** Every accepted key. */
  static List<String> keys() {
    return Stream.concat(
            Stream.of(Var.values()).map(Var::key),
            Stream.of(ANNOTATIONS, LABELS, CONTAINER_ANNOTATIONS, CONTAINERS, DEVICES, MOUNTS))
        .toList();
  }

  /** Parses a mapping of variables of a scenario without devices. */
  static PodVars parse(ScenarioNode node) {
    return parse(node, Set.of());
  }

  /**
   * Parses a mapping of variables; {@code devices} and {@code mounts} may name the scenario's
   * {@code declared} devices only.
   */
  static PodVars parse(ScenarioNode node, Set<String> declared) {
    Map<Var, String> values = new EnumMap<>(Var.class);
    Optional<Map<String, String>> annotations = Optional.empty();
    Optional<Map<String, String>> labels = Optional.empty();
    Optional<Map<String, Map<String, String>>> perContainer = Optional.empty();
    Optional<List<String>> names = Optional.empty();
    Optional<List<String>> devices = Optional.empty();
    Optional<List<String>> mounts = Optional.empty();
    for (Map.Entry<String, ScenarioNode> e : node.mapping().entrySet()) {
      String key = e.getKey().toLowerCase(Locale.ROOT);
      ScenarioNode value = e.getValue();
      switch (key) {
        case ANNOTATIONS ->
            annotations = Optional.of(value.isNull() ? Map.of() : value.stringMap());
        case LABELS -> labels = Optional.of(value.isNull() ? Map.of() : value.stringMap());
        case CONTAINER_ANNOTATIONS -> perContainer = Optional.of(containerMaps(value));
        case CONTAINERS ->
            names = Optional.of(value.list().stream().map(ScenarioNode::text).toList());
        case DEVICES -> devices = Optional.of(devicePaths(value, declared));
        case MOUNTS -> mounts = Optional.of(devicePaths(value, declared));
        default -> {
          Var var = var(key, value);
          if (values.put(var, scalar(var, value)) != null) {
            throw value.error("given twice (keys are case-insensitive)");
          }
        }
      }
    }
    return new PodVars(values, annotations, labels, perContainer, names, devices, mounts);
  }

  /** A device's host path or a list of them, each one of {@code declared}; null for none. */
  private static List<String> devicePaths(ScenarioNode value, Set<String> declared) {
    if (value.isNull()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (ScenarioNode item : value.listOrOne()) {
      String path = item.text();
      if (!declared.contains(path)) {
        throw item.error(
            "unknown device "
                + path
                + (declared.isEmpty()
                    ? ": the scenario declares no devices (top-level devices)"
                    : ", the scenario's devices are " + String.join(", ", declared)));
      }
      if (out.contains(path)) {
        throw item.error(path + " given twice");
      }
      out.add(path);
    }
    return out;
  }

  private static Var var(String key, ScenarioNode value) {
    for (Var v : Var.values()) {
      if (v.key().equals(key)) {
        return v;
      }
    }
    throw value.error("unknown key, expected one of " + String.join(", ", keys()));
  }

  private static String scalar(Var var, ScenarioNode value) {
    if (value.isNull()) {
      return "";
    }
    String text = value.text().trim();
    if (text.isEmpty()) {
      return "";
    }
    switch (var) {
      case TEMPLATE -> value.parsed(Template::parse);
      case CONTCOUNT, ICONTCOUNT, SIDECARCOUNT -> value.integer();
      case CPU, CPUREQ, CPULIM -> value.parsed(Quantities::parseMilli);
      case MEM, MEMREQ, MEMLIM -> value.parsed(Quantities::parseBytes);
      case CPUREQLIM, INITCPUREQLIM -> value.parsed(PodSpec::cpuWords);
      case NAME, NAMESPACE -> Objects.requireNonNull(text);
    }
    return text;
  }

  private static Map<String, Map<String, String>> containerMaps(ScenarioNode value) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    if (!value.isNull()) {
      value.mapping().forEach((name, map) -> out.put(name, map.stringMap()));
    }
    return out;
  }
}
