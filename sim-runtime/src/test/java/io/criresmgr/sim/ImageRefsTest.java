package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ImageRefsTest {

  @ParameterizedTest
  @CsvSource({
    "busybox, docker.io/library/busybox:latest",
    "busybox:1.36, docker.io/library/busybox:1.36",
    "library/busybox, docker.io/library/busybox:latest",
    "intel/nginx:1, docker.io/intel/nginx:1",
    "registry.k8s.io/pause:3.10, registry.k8s.io/pause:3.10",
    "localhost/app, localhost/app:latest",
    "localhost:5000/app, localhost:5000/app:latest",
    "busybox@sha256:abc, docker.io/library/busybox@sha256:abc",
    "sha256:" + HEX + ", sha256:" + HEX,
    HEX + ", sha256:" + HEX,
  })
  void normalizesLikeContainerd(String reference, String expected) {
    assertEquals(expected, ImageRefs.normalize(reference));
  }

  @ParameterizedTest
  @CsvSource({
    "docker.io/library/busybox:latest, docker.io/library/busybox",
    "localhost:5000/app:1, localhost:5000/app",
    "localhost:5000/app, localhost:5000/app",
    "docker.io/library/busybox@sha256:abc, docker.io/library/busybox",
  })
  void repositoryDropsTagAndDigest(String normalized, String repository) {
    assertEquals(repository, ImageRefs.repository(normalized));
  }

  private static final String HEX =
      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
}
