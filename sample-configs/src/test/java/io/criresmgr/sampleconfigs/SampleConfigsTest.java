package io.criresmgr.sampleconfigs;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every sample configuration in this module parses with the daemon's real loader. */
class SampleConfigsTest {
  private static final Path MODULE_DIR = Path.of(System.getProperty("basedir", "."));

  private static List<Path> samples() throws IOException {
    try (Stream<Path> files = Files.list(MODULE_DIR)) {
      return files
          .filter(p -> p.toString().endsWith(".cfg") || p.toString().endsWith(".cfg.sample"))
          .sorted()
          .toList();
    }
  }

  @Test
  void samplesExist() throws IOException {
    assertTrue(samples().size() >= 3, () -> "too few samples in " + MODULE_DIR.toAbsolutePath());
  }

  @TestFactory
  Stream<DynamicTest> everySampleParses() throws IOException {
    ConfigLoader loader = ConfigLoader.builtIn();
    return samples().stream()
        .map(
            file ->
                DynamicTest.dynamicTest(
                    file.getFileName().toString(),
                    () -> {
                      try {
                        loader.load(file);
                      } catch (ConfigException e) {
                        fail(e.getMessage());
                      }
                    }));
  }
}
