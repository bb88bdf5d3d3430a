package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/** One dynamic test per scenario file below a test resource directory. */
final class ScenarioFiles {
  private ScenarioFiles() {}

  /** The {@code .yaml} files below resource directory {@code dir}, sorted. */
  static List<Path> files(String dir) {
    URL url =
        Objects.requireNonNull(
            ScenarioFiles.class.getClassLoader().getResource(dir), "no resource directory " + dir);
    try (Stream<Path> paths = Files.walk(Path.of(url.toURI()))) {
      return paths.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A test per file, named by its path below {@code dir}, passing when the scenario passes. */
  static Stream<DynamicTest> tests(String dir) {
    List<Path> files = files(dir);
    Path base = files.isEmpty() ? Path.of(".") : rootOf(files.get(0), dir);
    return files.stream()
        .map(f -> DynamicTest.dynamicTest(base.relativize(f).toString(), () -> run(f)));
  }

  /** Runs {@code file}; fails with the failure and the daemon's last log lines. */
  static void run(Path file) throws InterruptedException {
    ScenarioResult result = new ScenarioRunner().run(Scenario.read(file));
    assertTrue(
        result.passed(),
        () ->
            result.failure().orElse("")
                + "\nlast log lines:\n  "
                + String.join("\n  ", result.logTail()));
  }

  private static Path rootOf(Path file, String dir) {
    Path p = file;
    while (p != null && !p.endsWith(dir)) {
      p = p.getParent();
    }
    return p == null ? file.getParent() : p;
  }
}
