package io.criresmgr.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs each image's entry point in a private containerd (needs root, containerd, ctr and runc): the
 * daemon prints its version, the agent, its probe and the webhook their usage, each as the user its
 * image names and with a read-only root file system.
 */
class ImageRunIT {
  /** Prints the process's real uid with dash's builtins only (the images have no coreutils). */
  private static final String PRINT_UID =
      "while read key value rest; do [ \"$key\" = Uid: ] && echo \"uid=$value\"; done"
          + " < /proc/self/status; :";

  private static final Map<ImageUnderTest, OciImage> IMAGES = new EnumMap<>(ImageUnderTest.class);
  private static @Nullable PrivateContainerd containerd;

  @BeforeAll
  static void importImages() throws IOException, InterruptedException {
    if (Boolean.getBoolean("images.skipped")) {
      ImagesRequirement.unavailable("the images were not built (-Djib.skip=true)");
    }
    if (!Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"))) {
      ImagesRequirement.unavailable("not root; containerd and runc need root");
    }
    for (String tool : List.of("containerd", "ctr", "runc")) {
      if (!onPath(tool)) {
        ImagesRequirement.unavailable(tool + " not found on PATH (apt-get install containerd)");
      }
    }
    for (ImageUnderTest image : ImageUnderTest.values()) {
      IMAGES.put(image, OciImage.read(image.tarball()));
    }
    containerd = startContainerd();
    for (OciImage image : IMAGES.values()) {
      containerd.importImage(image.tarball());
    }
  }

  @AfterAll
  static void stopContainerd() throws IOException, InterruptedException {
    if (containerd != null) {
      containerd.stop();
    }
  }

  @Test
  void theDaemonPrintsItsVersion() throws Exception {
    CommandResult result = runEntrypoint(ImageUnderTest.DAEMON, "--version");
    assertEquals(0, result.exitCode(), result.output());
    assertTrue(
        result.output().contains("version: " + ImageUnderTest.property("images.version")),
        result.output());
  }

  @ParameterizedTest
  @EnumSource(
      value = ImageUnderTest.class,
      names = {"AGENT", "WEBHOOK"})
  void theAgentAndTheWebhookPrintTheirUsage(ImageUnderTest image) throws Exception {
    CommandResult result = runEntrypoint(image, "-h");
    assertEquals(0, result.exitCode(), result.output());
    assertTrue(result.output().startsWith("Usage: " + image.name + " "), result.output());
  }

  @Test
  void theAgentProbeIsOnThePathWithA64mHeap() throws Exception {
    CommandResult result =
        running()
            .run(
                ImageUnderTest.AGENT.reference(),
                List.of("--env", "JAVA_OPTS=-XX:+PrintCommandLineFlags"),
                List.of("cri-resmgr-agent-probe", "-h"));
    assertEquals(0, result.exitCode(), result.output());
    assertTrue(result.output().contains("-XX:MaxHeapSize=67108864 "), result.output());
    assertTrue(result.output().contains("Usage: cri-resmgr-agent-probe "), result.output());
  }

  @ParameterizedTest
  @EnumSource(ImageUnderTest.class)
  void runsAsTheUserOfItsImage(ImageUnderTest image) throws Exception {
    CommandResult result =
        running().run(image.reference(), List.of(), List.of("/bin/sh", "-c", PRINT_UID));
    assertEquals(0, result.exitCode(), result.output());
    assertEquals("uid=" + image.user.split(":", -1)[0], result.output().strip());
  }

  private static CommandResult runEntrypoint(ImageUnderTest image, String arg) throws Exception {
    List<String> args = new ArrayList<>(IMAGES.get(image).entrypoint());
    args.add(arg);
    return running().run(image.reference(), List.of(), args);
  }

  private static PrivateContainerd running() {
    if (containerd == null) {
      throw new IllegalStateException("containerd not started");
    }
    return containerd;
  }

  private static PrivateContainerd startContainerd() throws IOException, InterruptedException {
    try {
      return PrivateContainerd.start();
    } catch (IOException e) {
      ImagesRequirement.unavailable(e.getMessage());
      throw e;
    }
  }

  private static boolean onPath(String tool) {
    String path = System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
    for (String dir : path.split(":", -1)) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }
}
