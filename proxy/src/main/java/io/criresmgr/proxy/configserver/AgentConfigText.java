package io.criresmgr.proxy.configserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.files.ParseLimits;
import io.criresmgr.proxy.config.ConfigException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The agent's configuration as stored in the cache ({@code AgentConfig}): a JSON object of section
 * name to the section's YAML text, exactly as the agent sent it, so that a restart parses the same
 * text with the same loader.
 */
public final class AgentConfigText {
  // The stored text is part of the cache file, and bounded as that is.
  private static final ObjectMapper JSON = new ObjectMapper(ParseLimits.CACHE.jsonFactory());

  private AgentConfigText() {}

  /** The stored text of {@code sections}, keys sorted. */
  public static String encode(Map<String, String> sections) {
    try {
      return JSON.writeValueAsString(new TreeMap<>(sections));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode the agent configuration", e);
    }
  }

  /**
   * The sections of a stored text; a ConfigException naming {@code source} if it is not an object
   * of strings.
   */
  public static Map<String, String> decode(String source, String text) {
    JsonNode tree;
    try {
      tree = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new ConfigException(
          source + ": not a JSON object of section texts: " + e.getOriginalMessage(), e);
    }
    if (tree == null || !tree.isObject()) {
      throw new ConfigException(source + ": not a JSON object of section texts");
    }
    Map<String, String> sections = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : tree.properties()) {
      if (!e.getValue().isTextual()) {
        throw new ConfigException(
            source + ": section " + e.getKey() + " is not a string of YAML text");
      }
      sections.put(e.getKey(), e.getValue().textValue());
    }
    return Map.copyOf(sections);
  }

  /**
   * The agent configuration stored in the cache file of {@code relayDir} and its journal, read
   * without changing them ({@link CacheFile#current}). A missing, unreadable or corrupt file has
   * none, nor has one that is no regular file or is too large (read as {@link CacheFile#load} reads
   * it): the daemon reports and moves such a file aside when it restores the cache.
   */
  public static Optional<String> read(Path relayDir) {
    JsonNode stored = CacheFile.current(relayDir).map(c -> c.path("AgentConfig")).orElse(null);
    return stored != null && stored.isTextual()
        ? Optional.of(stored.textValue())
        : Optional.empty();
  }
}
