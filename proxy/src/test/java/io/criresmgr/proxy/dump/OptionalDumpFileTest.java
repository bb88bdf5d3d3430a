package io.criresmgr.proxy.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.config.DumpConfig;
import io.criresmgr.proxy.relay.UnixFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At start the dump file is optional: one that cannot be opened leaves the daemon dumping to the
 * log, is reported for {@code /healthz} and is tried again until it opens.
 */
class OptionalDumpFileTest {
  @TempDir Path dir;

  @Test
  void aDumpFileThatCannotBeOpenedIsReportedAndOpenedLater() throws Exception {
    Path file = Files.createDirectories(dir.resolve("dump.log")); // a directory: cannot be opened
    DumpConfig config = new DumpConfig(DumpConfig.DEFAULT_RULES, file.toString(), false, false);
    try (MessageDumper dumper = MessageDumper.starting(config, Duration.ofMillis(20))) {
      String problem = dumper.problem().orElseThrow();
      assertTrue(
          problem.startsWith("cannot open dump file \"" + file + "\": it exists and is not a"),
          problem);

      Files.delete(file);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (dumper.problem().isPresent()) {
        assertTrue(System.nanoTime() < deadline, "still " + dumper.problem());
        Thread.sleep(10); // polling interval
      }
      assertEquals(Optional.empty(), dumper.problem());
      assertTrue(Files.isRegularFile(file));
      assertEquals(0600, UnixFiles.mode(file) & 0777);
    }
  }

  @Test
  void aReloadedSectionStopsTheRetry() throws Exception {
    Path file = Files.createDirectories(dir.resolve("dump.log"));
    DumpConfig config = new DumpConfig(DumpConfig.DEFAULT_RULES, file.toString(), false, false);
    try (MessageDumper dumper = MessageDumper.starting(config, Duration.ofMillis(20))) {
      dumper.configure(DumpConfig.defaults());
      assertEquals(Optional.empty(), dumper.problem());
    }
  }
}
