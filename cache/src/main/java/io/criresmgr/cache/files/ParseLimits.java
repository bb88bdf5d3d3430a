package io.criresmgr.cache.files;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import java.util.Map;
import java.util.Objects;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Bounds for a parser of text the daemon does not write itself, so that no input can make parsing
 * slow or exhaust memory: the document's length, every string's (and key's) length, nesting depth,
 * number length and, for YAML, aliases. Jackson enforces them for JSON; for YAML it enforces the
 * document length and nesting, and {@link #readYaml} checks the document before and the strings
 * after parsing (SnakeYAML has no per-scalar limit).
 *
 * @param what what is parsed, for error messages: "configuration"
 * @param maxDocumentChars the longest document
 * @param maxStringChars the longest string value or key
 */
public record ParseLimits(String what, int maxDocumentChars, int maxStringChars) {
  /** The deepest nesting of mappings and sequences. */
  public static final int MAX_NESTING_DEPTH = 64;

  /** The most digits of a number. */
  public static final int MAX_NUMBER_LENGTH = 64;

  /** The most aliases a YAML document may use (SnakeYAML's default, stated). */
  public static final int MAX_YAML_ALIASES = 50;

  private static final int KIB = 1024;
  private static final int MIB = 1024 * KIB;

  /** A configuration file or section: 1 MiB, values of at most 64 KiB. */
  public static final ParseLimits CONFIG = new ParseLimits("configuration", MIB, 64 * KIB);

  /** A pod annotation: 256 KiB (Kubernetes' limit of all of a pod's annotations). */
  public static final ParseLimits ANNOTATION = new ParseLimits("annotation", 256 * KIB, 64 * KIB);

  /** The adjustments of a node, as the node agent sends them: 8 MiB. */
  public static final ParseLimits ADJUSTMENTS = new ParseLimits("adjustments", 8 * MIB, 64 * KIB);

  /**
   * The cache file ({@link FileLimit#CACHE}); its longest strings are the stored agent
   * configuration's sections.
   */
  public static final ParseLimits CACHE =
      new ParseLimits("the cache file", (int) FileLimit.CACHE.maxBytes(), 8 * MIB);

  /** Checks the values. */
  public ParseLimits {
    Objects.requireNonNull(what, "what");
    if (maxStringChars <= 0 || maxDocumentChars < maxStringChars) {
      throw new IllegalArgumentException(
          "maxStringChars: " + maxStringChars + ": expected 1 to maxDocumentChars");
    }
  }

  /** Jackson's constraints for these limits. */
  public StreamReadConstraints constraints() {
    return StreamReadConstraints.builder()
        .maxDocumentLength(maxDocumentChars)
        .maxStringLength(maxStringChars)
        .maxNameLength(maxStringChars)
        .maxNestingDepth(MAX_NESTING_DEPTH)
        .maxNumberLength(MAX_NUMBER_LENGTH)
        .build();
  }

  /** A JSON factory enforcing these limits. */
  public JsonFactory jsonFactory() {
    return JsonFactory.builder().streamReadConstraints(constraints()).build();
  }

  /** A YAML factory builder enforcing these limits (add generator or parser features to it). */
  public YAMLFactoryBuilder yamlFactoryBuilder() {
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(maxDocumentChars);
    options.setNestingDepthLimit(MAX_NESTING_DEPTH);
    options.setMaxAliasesForCollections(MAX_YAML_ALIASES);
    options.setAllowRecursiveKeys(false);
    return YAMLFactory.builder().loaderOptions(options).streamReadConstraints(constraints());
  }

  /** A YAML factory enforcing these limits. */
  public YAMLFactory yamlFactory() {
    return yamlFactoryBuilder().build();
  }

  /**
   * Parses {@code text} with {@code yaml} (built on {@link #yamlFactory}) into a tree, refusing a
   * document or a string (value or key) longer than these limits.
   *
   * @throws StreamConstraintsException naming the limit, if one is exceeded
   * @throws JsonProcessingException if it is no YAML
   */
  public JsonNode readYaml(ObjectMapper yaml, String text) throws JsonProcessingException {
    if (text.length() > maxDocumentChars) {
      throw exceeded("Document length", text.length(), maxDocumentChars, "");
    }
    JsonNode tree = yaml.readTree(text);
    if (tree == null) {
      return MissingNode.getInstance();
    }
    checkStrings(tree, "");
    return tree;
  }

  private void checkStrings(JsonNode node, String path) throws StreamConstraintsException {
    if (node.isTextual() && node.textValue().length() > maxStringChars) {
      throw exceeded("String value length", node.textValue().length(), maxStringChars, path);
    }
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String at = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
      if (e.getKey().length() > maxStringChars) {
        throw exceeded("Key length", e.getKey().length(), maxStringChars, path);
      }
      checkStrings(e.getValue(), at);
    }
    for (int i = 0; node.isArray() && i < node.size(); i++) {
      checkStrings(node.get(i), path + "[" + i + "]");
    }
  }

  // Keys may be long too: the message stays readable.
  private static String shorten(String path) {
    return path.length() <= 200 ? path : path.substring(0, 200) + "...";
  }

  private StreamConstraintsException exceeded(String what, int length, int max, String path) {
    return new StreamConstraintsException(
        what
            + " ("
            + length
            + ")"
            + (path.isEmpty() ? "" : " at " + shorten(path))
            + " exceeds the maximum allowed ("
            + max
            + ") for "
            + this.what);
  }
}
