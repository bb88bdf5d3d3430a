package io.criresmgr.controllers.memoryqos;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.StrictMapping;
import io.criresmgr.controllers.ControllerException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code memory-qos} configuration section.
 *
 * <pre>
 * memory-qos:
 *   classes:
 *   - name: bronze
 *     swaplimitratio: 0.5
 *   - name: silver
 *     swaplimitratio: 0.2
 *   unifiedannotations:
 *   - memory.swap.max
 *   - memory.high
 * </pre>
 *
 * @param classes the classes, names unique (case-sensitive, as annotation values are)
 * @param unifiedAnnotations cgroup v2 file names that direct {@code <file>.memory-qos.nri.io}
 *     annotations may set, unique, in configuration order
 */
public record MemoryQosConfig(List<MemoryQosClass> classes, List<String> unifiedAnnotations) {
  /** The section name in the configuration file. */
  public static final String SECTION = "memory-qos";

  /** No classes and no allowed files: every memory QoS annotation is rejected. */
  public static final MemoryQosConfig EMPTY = new MemoryQosConfig(List.of(), List.of());

  /**
   * What a {@code unifiedannotations} entry must look like: a cgroup v2 interface file name such as
   * {@code memory.high} or {@code hugetlb.2MB.max}. Also keeps the name a single path component,
   * since it becomes a file name under the container's cgroup.
   */
  static final Pattern FILE_NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[A-Za-z0-9_]+)+");

  private static final List<String> SECTION_KEYS = List.of("classes", "unifiedannotations");
  private static final List<String> CLASS_KEYS = List.of("name", "swaplimitratio");

  /** Copies the lists; rejects duplicate class names and malformed or duplicate file names. */
  public MemoryQosConfig {
    classes = List.copyOf(classes);
    unifiedAnnotations = List.copyOf(unifiedAnnotations);
    Set<String> names = new HashSet<>();
    for (MemoryQosClass c : classes) {
      if (!names.add(c.name())) {
        throw new IllegalArgumentException("duplicate class name \"" + c.name() + "\"");
      }
    }
    for (String file : unifiedAnnotations) {
      if (!FILE_NAME.matcher(file).matches()) {
        throw new IllegalArgumentException("not a cgroup v2 file name: \"" + file + "\"");
      }
    }
    if (Set.copyOf(unifiedAnnotations).size() != unifiedAnnotations.size()) {
      throw new IllegalArgumentException("duplicate unified annotation in " + unifiedAnnotations);
    }
  }

  /** The class called {@code name} (exact, case-sensitive match). */
  public Optional<MemoryQosClass> find(String name) {
    return classes.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /** Whether direct annotations may set cgroup v2 file {@code file}. */
  public boolean allows(String file) {
    return unifiedAnnotations.contains(file);
  }

  /**
   * Parses the section at its usual place, {@code memory-qos}; see {@link #parse(String,
   * JsonNode)}.
   */
  public static MemoryQosConfig parse(JsonNode section) {
    return parse(SECTION, section);
  }

  /**
   * Parses the section found at {@code path} (used in error messages). A missing or null section is
   * {@link #EMPTY}. Keys match exactly or case-insensitively; unknown keys, wrong types, a ratio
   * outside 0.0..1.0, an empty or duplicate class name and a malformed or duplicate file name are
   * errors naming the path, the value and what is allowed, e.g. {@code
   * memory-qos.classes[1].swaplimitratio: invalid value 1.5: expected a number from 0.0 to 1.0}.
   *
   * @throws ControllerException if the section is invalid
   */
  public static MemoryQosConfig parse(String path, JsonNode section) {
    StrictMapping reader = StrictMapping.of(path, section, SECTION_KEYS, ControllerException::new);
    List<MemoryQosClass> classes =
        reader.uniquelyNamed("classes", MemoryQosConfig::parseClass, MemoryQosClass::name, "class");
    return new MemoryQosConfig(classes, parseFiles(reader));
  }

  private static MemoryQosClass parseClass(String at, JsonNode item) {
    StrictMapping reader = StrictMapping.of(at, item, CLASS_KEYS, ControllerException::new);
    JsonNode name =
        reader
            .field("name")
            .orElseThrow(
                () -> new ControllerException(at + ".name: missing, a class needs a name"));
    if (!name.isTextual() || name.textValue().isEmpty()) {
      throw invalid(at + ".name", name, "expected a non-empty string");
    }
    float ratio = reader.field("swaplimitratio").map(v -> ratio(at, v)).orElse(0.0f);
    return new MemoryQosClass(name.textValue(), ratio);
  }

  /** The ratio as the original plugin's float32; range-checked before rounding to float. */
  private static float ratio(String at, JsonNode value) {
    if (!value.isNumber() || !(value.doubleValue() >= 0.0 && value.doubleValue() <= 1.0)) {
      throw invalid(at + ".swaplimitratio", value, "expected a number from 0.0 to 1.0");
    }
    return Float.parseFloat(value.asText());
  }

  private static List<String> parseFiles(StrictMapping reader) {
    List<String> files = new ArrayList<>();
    List<JsonNode> items = reader.list("unifiedannotations");
    for (int i = 0; i < items.size(); i++) {
      String at = reader.path("unifiedannotations") + "[" + i + "]";
      JsonNode item = items.get(i);
      if (!item.isTextual() || !FILE_NAME.matcher(item.textValue()).matches()) {
        throw invalid(
            at, item, "expected a cgroup v2 file name such as memory.high or memory.swap.max");
      }
      if (files.contains(item.textValue())) {
        throw invalid(at, item, "duplicate file name, names must be unique");
      }
      files.add(item.textValue());
    }
    return files;
  }

  private static ControllerException invalid(String path, JsonNode value, String expected) {
    return new ControllerException(StrictMapping.invalidMessage(path, value, expected));
  }
}
