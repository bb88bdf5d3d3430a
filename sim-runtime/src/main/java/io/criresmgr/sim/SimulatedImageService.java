package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.ImageFsInfoRequest;
import io.criresmgr.api.runtime.v1.ImageFsInfoResponse;
import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.ImageStatusRequest;
import io.criresmgr.api.runtime.v1.ImageStatusResponse;
import io.criresmgr.api.runtime.v1.ListImagesRequest;
import io.criresmgr.api.runtime.v1.ListImagesResponse;
import io.criresmgr.api.runtime.v1.PullImageRequest;
import io.criresmgr.api.runtime.v1.PullImageResponse;
import io.criresmgr.api.runtime.v1.RemoveImageRequest;
import io.criresmgr.api.runtime.v1.RemoveImageResponse;
import io.criresmgr.api.runtime.v1.StreamImagesRequest;
import io.criresmgr.api.runtime.v1.StreamImagesResponse;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * The simulated CRI {@code ImageService}: "pulling" records an image with a stable {@code sha256:}
 * id derived from its reference; nothing is downloaded. Obtain it from {@link SimRuntime};
 * thread-safe.
 */
public final class SimulatedImageService extends ImageServiceGrpc.ImageServiceImplBase {
  private final ImageStore images;
  private final Listings listings;
  private final Clock clock;

  SimulatedImageService(ImageStore images, Listings listings, Clock clock) {
    this.images = Objects.requireNonNull(images, "images");
    this.listings = Objects.requireNonNull(listings, "listings");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void listImages(ListImagesRequest request, StreamObserver<ListImagesResponse> observer) {
    Replies.unary(
        observer,
        () ->
            ListImagesResponse.newBuilder()
                .addAllImages(listings.images(request.getFilter()))
                .build());
  }

  @Override
  public void streamImages(
      StreamImagesRequest request, StreamObserver<StreamImagesResponse> observer) {
    Replies.stream(
        observer,
        () -> listings.images(request.getFilter()),
        batch -> StreamImagesResponse.newBuilder().addAllImages(batch).build());
  }

  /** An unknown image is no error: the response has no image, as the CRI specifies. */
  @Override
  public void imageStatus(
      ImageStatusRequest request, StreamObserver<ImageStatusResponse> observer) {
    Replies.unary(
        observer,
        () -> {
          ImageStatusResponse.Builder response = ImageStatusResponse.newBuilder();
          images
              .find(reference(request.getImage()))
              .map(ImageViews::image)
              .ifPresent(response::setImage);
          return response.build();
        });
  }

  @Override
  public void pullImage(PullImageRequest request, StreamObserver<PullImageResponse> observer) {
    Replies.unary(
        observer,
        () -> {
          SimImage image = images.pull(reference(request.getImage()));
          return PullImageResponse.newBuilder().setImageRef(image.id()).build();
        });
  }

  /** Removes the image with all its tags; removing an unknown image succeeds (idempotent). */
  @Override
  public void removeImage(
      RemoveImageRequest request, StreamObserver<RemoveImageResponse> observer) {
    Replies.unary(
        observer,
        () -> {
          images.remove(reference(request.getImage()));
          return RemoveImageResponse.getDefaultInstance();
        });
  }

  @Override
  public void imageFsInfo(
      ImageFsInfoRequest request, StreamObserver<ImageFsInfoResponse> observer) {
    Replies.unary(
        observer,
        () -> {
          List<SimImage> all = images.list();
          long used = all.stream().mapToLong(SimImage::size).sum();
          return ImageFsInfoResponse.newBuilder()
              .addImageFilesystems(StatsViews.filesystem(Timestamps.nanos(clock), used, all.size()))
              .build();
        });
  }

  private static String reference(ImageSpec spec) {
    if (spec.getImage().isBlank()) {
      throw SimErrors.invalidArgument("image spec must name an image");
    }
    return spec.getImage();
  }
}
