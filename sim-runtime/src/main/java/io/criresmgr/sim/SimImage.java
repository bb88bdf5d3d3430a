package io.criresmgr.sim;

import java.util.List;
import java.util.Objects;

/**
 * An image the simulated runtime has "pulled".
 *
 * @param id {@code sha256:<64 hex>}, derived from the first reference it was pulled as
 * @param repoTags normalized references, e.g. {@code docker.io/library/busybox:latest}
 * @param repoDigests digest references, e.g. {@code docker.io/library/busybox@sha256:...}
 * @param size a fixed size in bytes (the CRI requires &gt; 0)
 */
record SimImage(String id, List<String> repoTags, List<String> repoDigests, long size) {

  SimImage {
    Objects.requireNonNull(id, "id");
    repoTags = List.copyOf(repoTags);
    repoDigests = List.copyOf(repoDigests);
    if (size <= 0) {
      throw new IllegalArgumentException("size: must be > 0, got " + size);
    }
  }

  /** The reference containers report as {@code image_ref}: the first digest, else the id. */
  String ref() {
    return repoDigests.isEmpty() ? id : repoDigests.get(0);
  }

  /** True if {@code reference} (already normalized) names this image. */
  boolean isKnownAs(String reference) {
    return id.equals(reference) || repoTags.contains(reference) || repoDigests.contains(reference);
  }
}
