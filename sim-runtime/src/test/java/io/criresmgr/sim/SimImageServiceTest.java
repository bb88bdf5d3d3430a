package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.FilesystemUsage;
import io.criresmgr.api.runtime.v1.Image;
import io.criresmgr.api.runtime.v1.ImageFilter;
import io.criresmgr.api.runtime.v1.ImageFsInfoRequest;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.ImageStatusRequest;
import io.criresmgr.api.runtime.v1.ImageStatusResponse;
import io.criresmgr.api.runtime.v1.ListImagesRequest;
import io.criresmgr.api.runtime.v1.ListImagesResponse;
import io.criresmgr.api.runtime.v1.PullImageRequest;
import io.criresmgr.api.runtime.v1.RemoveImageRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SimImageServiceTest {
  private final InProcessSim env = new InProcessSim();

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void pullListStatusRemove() {
    String ref = env.pull("busybox");
    assertEquals(ref, env.pull("docker.io/library/busybox:latest"), "same image, same id");
    env.pull("registry.k8s.io/pause:3.10");

    List<Image> all = env.images.listImages(ListImagesRequest.getDefaultInstance()).getImagesList();
    assertEquals(2, all.size());
    Image busybox = all.get(0);
    assertEquals(ref, busybox.getId());
    assertEquals(List.of("docker.io/library/busybox:latest"), busybox.getRepoTagsList());
    assertTrue(busybox.getRepoDigests(0).startsWith("docker.io/library/busybox@sha256:"));
    assertTrue(busybox.getSize() > 0);

    ListImagesRequest filtered =
        ListImagesRequest.newBuilder()
            .setFilter(ImageFilter.newBuilder().setImage(spec("registry.k8s.io/pause:3.10")))
            .build();
    assertEquals(1, env.images.listImages(filtered).getImagesCount());

    assertEquals(busybox, status(ref).getImage(), "found by id");
    assertEquals(busybox, status(busybox.getRepoDigests(0)).getImage(), "found by digest");

    env.images.removeImage(RemoveImageRequest.newBuilder().setImage(spec("busybox")).build());
    assertFalse(status("busybox").hasImage(), "unknown image: response without image");
    env.images.removeImage(RemoveImageRequest.newBuilder().setImage(spec("busybox")).build());
  }

  @Test
  void imageFsInfoCountsTheImages() {
    env.pull("busybox");
    env.pull("nginx");
    FilesystemUsage fs =
        env.images.imageFsInfo(ImageFsInfoRequest.getDefaultInstance()).getImageFilesystems(0);
    assertEquals(2 * ImageStore.IMAGE_SIZE, fs.getUsedBytes().getValue());
    assertEquals(2, fs.getInodesUsed().getValue());
    assertEquals(env.clock.nanos(), fs.getTimestamp());
    assertEquals(StatsViews.SNAPSHOTTER_ROOT, fs.getFsId().getMountpoint());
  }

  @Test
  void prePulledImagesArePresent() throws InterruptedException {
    try (SimRuntime sim =
        new SimRuntime(SimOptions.defaults().withImages(List.of("busybox", "pause:3.10")))) {
      RecordingObserver<ListImagesResponse> observer = new RecordingObserver<>();
      sim.imageService().listImages(ListImagesRequest.getDefaultInstance(), observer);
      List<String> tags =
          observer.next().getImagesList().stream().map(i -> i.getRepoTags(0)).toList();
      assertEquals(
          List.of("docker.io/library/busybox:latest", "docker.io/library/pause:3.10"), tags);
    }
  }

  @Test
  void missingOrUnknownIdsAreErrors() {
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> env.images.pullImage(PullImageRequest.getDefaultInstance()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    String unknownId = "sha256:" + "1".repeat(64);
    e = assertThrows(StatusRuntimeException.class, () -> env.pull(unknownId));
    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains(unknownId));
    assertThrows(
        IllegalArgumentException.class,
        () -> new SimRuntime(SimOptions.defaults().withImages(List.of(unknownId))));
  }

  private ImageStatusResponse status(String image) {
    return env.images.imageStatus(ImageStatusRequest.newBuilder().setImage(spec(image)).build());
  }

  private static ImageSpec spec(String image) {
    return ImageSpec.newBuilder().setImage(image).build();
  }
}
