package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerLogTest {
  @TempDir Path dir;

  @Test
  void dropsTheTimestampOfEachCriLogLine() throws Exception {
    Path log =
        Files.writeString(
            dir.resolve("c.log"),
            """
            2026-11-21T13:56:00.1Z stdout F hello-e2e
            2026-11-21T13:56:00.2Z stderr P part of a line
            """);
    assertEquals(
        List.of("stdout F hello-e2e", "stderr P part of a line"),
        ContainerLog.awaitMessages(log, "hello-e2e"));
  }

  @Test
  void waitsForTheExpectedLineToBeWritten() throws Exception {
    Path log = dir.resolve("late.log");
    Thread writer =
        new Thread(
            () -> {
              try {
                Thread.sleep(200);
                Files.writeString(log, "2026-11-21T13:56:00.1Z stdout F late\n");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    writer.start();
    assertEquals(List.of("stdout F late"), ContainerLog.awaitMessages(log, "late"));
    writer.join();
  }
}
