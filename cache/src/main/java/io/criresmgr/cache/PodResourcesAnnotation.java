package io.criresmgr.cache;

import java.util.Map;

/**
 * Reads the webhook's pod annotation with every container's requests and limits (reference §8):
 * {@code {"initContainers":{"<name>":{"requests":{"cpu":"500m","memory":"1Gi"},"limits":{...}}},
 * "containers":{...}}}.
 */
public final class PodResourcesAnnotation {
  /** The annotation key our webhook writes. */
  public static final String KEY = "resources.cri-resource-manager.intel.com";

  /** The key cri-resmgr's webhook writes, accepted too. */
  public static final String LEGACY_KEY = "intel.com/resources";

  private PodResourcesAnnotation() {}

  /**
   * The resources from {@link #KEY}, else {@link #LEGACY_KEY}; {@link PodResources#NONE} if neither
   * is set.
   *
   * @throws IllegalArgumentException naming the annotation and what is wrong with its value
   */
  public static PodResources fromAnnotations(Map<String, String> annotations) {
    throw new UnsupportedOperationException("TODO");
  }
}
