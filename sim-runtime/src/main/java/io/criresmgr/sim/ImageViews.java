package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.Image;
import io.criresmgr.api.runtime.v1.ImageSpec;

/** Builds the CRI message that describes a {@link SimImage}. */
final class ImageViews {
  private ImageViews() {}

  static Image image(SimImage image) {
    String name = image.repoTags().isEmpty() ? image.ref() : image.repoTags().get(0);
    return Image.newBuilder()
        .setId(image.id())
        .addAllRepoTags(image.repoTags())
        .addAllRepoDigests(image.repoDigests())
        .setSize(image.size())
        .setSpec(ImageSpec.newBuilder().setImage(name))
        .build();
  }
}
