package io.criresmgr.cache;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the cache persists, as an immutable value (the cache file's content).
 *
 * @param version format version; a file with another version is not restored
 * @param pods pods by sandbox id
 * @param containers containers by cache id
 * @param nextSeq the next creation sequence number
 * @param activePolicy the policy that made the recorded assignments
 * @param policyData each policy's private state by policy name
 * @param agentConfig the last configuration accepted from the node agent, as YAML
 * @param adjustments the adjustments last accepted from the node agent
 */
public record CacheSnapshot(
    String version,
    Map<String, Pod> pods,
    Map<String, Container> containers,
    long nextSeq,
    String activePolicy,
    Map<String, JsonNode> policyData,
    Optional<String> agentConfig,
    Optional<StoredAdjustments> adjustments) {
  /** The version this build writes and restores. */
  public static final String VERSION = "cri-resmgr-java/1";

  /** A snapshot without stored adjustments. */
  public CacheSnapshot(
      String version,
      Map<String, Pod> pods,
      Map<String, Container> containers,
      long nextSeq,
      String activePolicy,
      Map<String, JsonNode> policyData,
      Optional<String> agentConfig) {
    this(
        version,
        pods,
        containers,
        nextSeq,
        activePolicy,
        policyData,
        agentConfig,
        Optional.empty());
  }

  /** Checks for nulls and copies the maps. */
  public CacheSnapshot {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(activePolicy, "activePolicy");
    Objects.requireNonNull(agentConfig, "agentConfig");
    Objects.requireNonNull(adjustments, "adjustments");
    pods = Map.copyOf(pods);
    containers = Map.copyOf(containers);
    policyData = Map.copyOf(policyData);
  }
}
