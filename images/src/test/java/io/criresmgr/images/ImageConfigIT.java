package io.criresmgr.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What the image tarballs say: entry points, users, names, the shared Debian base. */
class ImageConfigIT {
  private static final Map<ImageUnderTest, OciImage> IMAGES = new EnumMap<>(ImageUnderTest.class);

  @BeforeAll
  static void readTarballs() throws IOException {
    if (Boolean.getBoolean("images.skipped")) {
      ImagesRequirement.unavailable("the images were not built (-Djib.skip=true)");
    }
    for (ImageUnderTest image : ImageUnderTest.values()) {
      IMAGES.put(image, OciImage.read(image.tarball()));
    }
  }

  @ParameterizedTest
  @EnumSource(ImageUnderTest.class)
  void runsItsMainClassWithTheLaunchersJvmFlags(ImageUnderTest image) {
    assertEquals(
        List.of(
            "java",
            "-XX:+UseSerialGC",
            "-XX:+ExitOnOutOfMemoryError",
            "-XX:CompileThresholdScaling=3",
            "-XX:CompileCommand=quiet",
            "-XX:CompileCommand=CompileThresholdScaling,io/grpc/*.*,0.1",
            "-XX:CompileCommand=CompileThresholdScaling,io/netty/*.*,0.1",
            "-XX:-UsePerfData",
            "-Xms16m",
            "-Xmx" + image.heap,
            "-Xss512k",
            "-Dio.netty.allocator.numDirectArenas=1",
            "-XX:TrimNativeHeapInterval=10000",
            "-cp",
            "@/app/jib-classpath-file",
            image.mainClass),
        IMAGES.get(image).entrypoint());
  }

  @ParameterizedTest
  @EnumSource(ImageUnderTest.class)
  void runsAsRootOnlyForTheDaemon(ImageUnderTest image) {
    assertEquals(image == ImageUnderTest.DAEMON ? "0:0" : "65534:65534", IMAGES.get(image).user());
  }

  @ParameterizedTest
  @EnumSource(ImageUnderTest.class)
  void isNamedAfterTheComponentAndTaggedWithTheProjectVersion(ImageUnderTest image) {
    assertEquals(image.reference(), IMAGES.get(image).refName());
  }

  @ParameterizedTest
  @EnumSource(ImageUnderTest.class)
  void findsJavaOnThePath(ImageUnderTest image) {
    List<String> env = IMAGES.get(image).env();
    assertTrue(env.contains("JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64"), env::toString);
    assertTrue(
        env.stream().anyMatch(e -> e.startsWith("PATH=/usr/lib/jvm/java-17-openjdk-amd64/bin:")),
        env::toString);
  }

  @Test
  void theWebhookExposesItsHttpsPort() {
    assertTrue(
        IMAGES
            .get(ImageUnderTest.WEBHOOK)
            .config()
            .path("config")
            .path("ExposedPorts")
            .has("8443/tcp"));
  }

  @Test
  void allThreeShareOneBaseLayerMadeOfDebianPackages() {
    List<String> bases =
        IMAGES.values().stream().map(image -> image.layerDigests().get(0)).distinct().toList();
    assertEquals(1, bases.size(), "base layers: " + bases);
    String createdBy =
        IMAGES
            .get(ImageUnderTest.DAEMON)
            .config()
            .path("history")
            .path(0)
            .path("created_by")
            .asText();
    assertTrue(createdBy.contains(" openjdk-17-jre-headless_17."), createdBy);
    assertTrue(createdBy.contains(" libc6_2."), createdBy);
  }
}
