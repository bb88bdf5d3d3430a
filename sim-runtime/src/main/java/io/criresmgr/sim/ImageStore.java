package io.criresmgr.sim;

import io.grpc.Status;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The images the simulated runtime has "pulled". Thread-safe. */
final class ImageStore {
  /** Every simulated image has this size (the CRI requires a size &gt; 0). */
  static final long IMAGE_SIZE = 4L << 20;

  private final Map<String, SimImage> images = new LinkedHashMap<>();

  /** Adds the image unless present; returns the stored image. */
  synchronized SimImage pull(String reference) {
    String ref = ImageRefs.normalize(reference);
    Optional<SimImage> present = find(ref);
    if (present.isPresent()) {
      return present.get();
    }
    if (ImageRefs.isId(ref)) {
      throw Status.NOT_FOUND
          .withDescription("failed to pull image \"" + reference + "\": image id is not known")
          .asRuntimeException();
    }
    SimImage image = newImage(ref);
    images.put(image.id(), image);
    return image;
  }

  /** Finds an image by id, tag or digest reference (normalized here). */
  synchronized Optional<SimImage> find(String reference) {
    String ref = ImageRefs.normalize(reference);
    return images.values().stream().filter(i -> i.isKnownAs(ref)).findFirst();
  }

  /** Returns the image or fails with NOT_FOUND, like containerd's CreateContainer. */
  synchronized SimImage require(String reference) {
    return find(reference)
        .orElseThrow(
            () ->
                Status.NOT_FOUND
                    .withDescription(
                        "failed to resolve image \"" + reference + "\": not found (pull it first)")
                    .asRuntimeException());
  }

  /** Removes the image with all its references; returns false if it was not present. */
  synchronized boolean remove(String reference) {
    return find(reference).map(i -> images.remove(i.id()) != null).orElse(false);
  }

  /** All images, in pull order. */
  synchronized List<SimImage> list() {
    return List.copyOf(images.values());
  }

  private static SimImage newImage(String ref) {
    String id = "sha256:" + ImageRefs.sha256(ref);
    String repository = ImageRefs.repository(ref);
    if (ImageRefs.isDigest(ref)) {
      return new SimImage(id, List.of(), List.of(ref), IMAGE_SIZE);
    }
    String digest = repository + "@sha256:" + ImageRefs.sha256("digest:" + ref);
    return new SimImage(id, List.of(ref), List.of(digest), IMAGE_SIZE);
  }
}
