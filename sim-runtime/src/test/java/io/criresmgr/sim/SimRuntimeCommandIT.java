package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.Image;
import io.criresmgr.api.runtime.v1.ListImagesRequest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code cri-resmgr sim-runtime} run in a thread and reached by a real client. */
class SimRuntimeCommandIT {
  @TempDir Path dir;

  @Test
  void servesUntilStopped() throws Exception {
    Path socket = dir.resolve("sim.sock");
    SimRuntimeCommand command = new SimRuntimeCommand();
    new CommandLine(command)
        .parseArgs(
            "--socket", "unix://" + socket, "--images", "busybox,registry.k8s.io/pause:3.10");
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> exit = thread.submit(command);
      try (SimClient client = new SimClient(socket)) {
        List<String> tags =
            client
                .images
                .listImages(ListImagesRequest.getDefaultInstance())
                .getImagesList()
                .stream()
                .map(Image::getRepoTagsList)
                .map(t -> t.get(0))
                .toList();
        assertEquals(
            List.of("docker.io/library/busybox:latest", "registry.k8s.io/pause:3.10"), tags);
      }
      command.stop();
      assertEquals(0, exit.get(10, TimeUnit.SECONDS));
      assertFalse(Files.exists(socket), "socket removed");
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void socketIsRequired() {
    StringWriter err = new StringWriter();
    int code = new CommandLine(new SimRuntimeCommand()).setErr(new PrintWriter(err)).execute();
    assertEquals(2, code);
    assertTrue(err.toString().contains("--socket"), err.toString());
  }

  @Test
  void emptySocketPathIsAUsageError() {
    StringWriter err = new StringWriter();
    int code =
        new CommandLine(new SimRuntimeCommand())
            .setErr(new PrintWriter(err))
            .execute("--socket", "unix://");
    assertEquals(2, code);
    assertTrue(err.toString().contains("--socket: must name a path"), err.toString());
  }

  @Test
  void unknownImageIdIsAUsageError() {
    StringWriter err = new StringWriter();
    String id = "sha256:" + "1".repeat(64);
    int code =
        new CommandLine(new SimRuntimeCommand())
            .setErr(new PrintWriter(err))
            .execute("--socket", dir.resolve("s.sock").toString(), "--images", id);
    assertEquals(2, code);
    assertTrue(err.toString().contains("--images: cannot pre-pull \"" + id), err.toString());
  }
}
