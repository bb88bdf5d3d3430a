package io.criresmgr.controllers.memtierd;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.StrictMapping;
import io.criresmgr.controllers.ControllerException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code memtierd} configuration section.
 *
 * <pre>
 * memtierd:
 *   binary: memtierd                      # default: memtierd, looked up in PATH
 *   rundir: /var/run/cri-resmgr/memtierd  # default
 *   classes:
 *   - name: swap-idle-data
 *     allowswap: true
 *     memtierdconfig: |
 *       policy:
 *         name: age
 *         config: |
 *           cgroups:
 *             - $CGROUP2_ABS_PATH
 * </pre>
 *
 * @param classes the classes, names unique (case-sensitive, as annotation values are)
 * @param binary the memtierd executable: a path, or a bare name looked up in {@code PATH}
 * @param runDir the base of the per-container output directories
 */
public record MemtierdConfig(List<MemtierdClass> classes, String binary, Path runDir) {
  /** The section name in the configuration file. */
  public static final String SECTION = "memtierd";

  /** The default executable, as the nri-plugins plugin runs it. */
  public static final String DEFAULT_BINARY = "memtierd";

  /** The default base of the per-container output directories. */
  public static final Path DEFAULT_RUN_DIR = Path.of("/var/run/cri-resmgr/memtierd");

  /** No classes: every non-empty class annotation is unknown. */
  public static final MemtierdConfig EMPTY =
      new MemtierdConfig(List.of(), DEFAULT_BINARY, DEFAULT_RUN_DIR);

  private static final List<String> SECTION_KEYS = List.of("classes", "binary", "rundir");
  private static final List<String> CLASS_KEYS = List.of("name", "allowswap", "memtierdconfig");

  /** Copies the list; rejects duplicate class names, an empty binary and a relative run dir. */
  public MemtierdConfig {
    classes = List.copyOf(classes);
    Objects.requireNonNull(binary, "binary");
    Objects.requireNonNull(runDir, "runDir");
    Set<String> names = new HashSet<>();
    for (MemtierdClass c : classes) {
      if (!names.add(c.name())) {
        throw new IllegalArgumentException("duplicate class name \"" + c.name() + "\"");
      }
    }
    if (binary.isEmpty()) {
      throw new IllegalArgumentException("memtierd binary must not be empty");
    }
    if (!runDir.isAbsolute()) {
      throw new IllegalArgumentException("run dir must be absolute: " + runDir);
    }
  }

  /** The class called {@code name} (exact, case-sensitive match). */
  public Optional<MemtierdClass> find(String name) {
    return classes.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * Parses the section at its usual place, {@code memtierd}; see {@link #parse(String, JsonNode)}.
   */
  public static MemtierdConfig parse(JsonNode section) {
    return parse(SECTION, section);
  }

  /**
   * Parses the section found at {@code path} (used in error messages). A missing or null section is
   * {@link #EMPTY}. Keys match exactly or case-insensitively; unknown keys, wrong types, an empty
   * or duplicate class name, an empty binary and a relative run dir are errors naming the path, the
   * value and what is allowed, e.g. {@code memtierd.classes[0].allowswap: invalid value "yes":
   * expected true or false}.
   *
   * @throws ControllerException if the section is invalid
   */
  public static MemtierdConfig parse(String path, JsonNode section) {
    StrictMapping reader = StrictMapping.of(path, section, SECTION_KEYS, ControllerException::new);
    List<MemtierdClass> classes =
        reader.uniquelyNamed("classes", MemtierdConfig::parseClass, MemtierdClass::name, "class");
    String binary = reader.field("binary").map(v -> binary(reader, v)).orElse(DEFAULT_BINARY);
    Path runDir = reader.field("rundir").map(v -> runDir(reader, v)).orElse(DEFAULT_RUN_DIR);
    return new MemtierdConfig(classes, binary, runDir);
  }

  private static MemtierdClass parseClass(String at, JsonNode item) {
    StrictMapping reader = StrictMapping.of(at, item, CLASS_KEYS, ControllerException::new);
    JsonNode name =
        reader
            .field("name")
            .orElseThrow(
                () -> new ControllerException(at + ".name: missing, a class needs a name"));
    if (!name.isTextual() || name.textValue().isEmpty()) {
      throw invalid(at + ".name", name, "expected a non-empty string");
    }
    @Nullable Boolean allowSwap = reader.field("allowswap").map(v -> allowSwap(at, v)).orElse(null);
    String template = reader.field("memtierdconfig").map(v -> template(at, v)).orElse("");
    return new MemtierdClass(name.textValue(), allowSwap, template);
  }

  private static Boolean allowSwap(String at, JsonNode value) {
    if (!value.isBoolean()) {
      throw invalid(at + ".allowswap", value, "expected true or false");
    }
    return value.booleanValue();
  }

  private static String template(String at, JsonNode value) {
    if (!value.isTextual()) {
      throw invalid(at + ".memtierdconfig", value, "expected a string (memtierd configuration)");
    }
    return value.textValue();
  }

  private static String binary(StrictMapping reader, JsonNode value) {
    if (!value.isTextual() || value.textValue().isEmpty()) {
      throw reader.invalid("binary", value, "expected a non-empty path or command name");
    }
    return value.textValue();
  }

  private static Path runDir(StrictMapping reader, JsonNode value) {
    if (!value.isTextual() || !value.textValue().startsWith("/")) {
      throw reader.invalid("rundir", value, "expected an absolute directory path");
    }
    return Path.of(value.textValue());
  }

  private static ControllerException invalid(String path, JsonNode value, String expected) {
    return new ControllerException(StrictMapping.invalidMessage(path, value, expected));
  }
}
