package io.criresmgr.policy.sysfs;

import io.criresmgr.policy.PolicyException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The checked-in specs, classpath resources {@code topologies/<name>.json} next to this class, and
 * the resolution of a command-line topology value.
 */
final class BuiltInSpecs {
  /** The built-in names, in the order docs/topology.md lists them. */
  static final List<String> NAMES =
      List.of(
          "laptop", "n4c16", "n4c32", "c4pmem4", "n4c128", "n8c448", "tiered", "s8c4096", "numaoff",
          "epyc");

  private BuiltInSpecs() {}

  /** The built-in spec {@code name}. */
  static TopologySpec load(String name) {
    if (!NAMES.contains(name)) {
      throw new PolicyException(
          "unknown built-in topology \""
              + name
              + "\", expected one of "
              + String.join(", ", NAMES));
    }
    String resource = "topologies/" + name + ".json";
    try (InputStream in = BuiltInSpecs.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("resource " + resource + " is missing from the jar");
      }
      return SpecParser.parse(
          new String(in.readAllBytes(), StandardCharsets.UTF_8), "built-in topology " + name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** JSON or YAML flow text, a built-in name, or a file. */
  static TopologySpec resolve(String value) {
    String text = value.strip();
    if (text.startsWith("[") || text.startsWith("{")) {
      return TopologySpec.parse(text);
    }
    if (NAMES.contains(text)) {
      return load(text);
    }
    Path file = Path.of(text);
    try {
      return SpecParser.parse(Files.readString(file), file.toString());
    } catch (NoSuchFileException e) {
      throw new PolicyException(
          "topology \""
              + text
              + "\" is not a built-in name ("
              + String.join(", ", NAMES)
              + "), a file or a JSON spec such as [{\"mem\":\"2G\",\"cores\":2}]",
          e);
    } catch (IOException e) {
      throw new PolicyException(file + ": cannot read: " + e, e);
    }
  }
}
