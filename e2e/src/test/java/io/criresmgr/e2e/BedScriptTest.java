package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BedScriptTest {
  @TempDir Path dir;

  @Test
  void collectsKeyValueLinesExitCodeAndStderr() throws Exception {
    Path script =
        Files.writeString(
            dir.resolve("start-x.sh"),
            """
            echo CRI_ENDPOINT=unix:///tmp/x.sock
            echo not a pair
            echo A=b=c
            echo 'oops' >&2
            exit 3
            """);
    BedScript.Result r = new BedScript(script, dir.resolve("logs")).run(Duration.ofSeconds(30));
    assertEquals(3, r.exitCode());
    assertEquals(Map.of("CRI_ENDPOINT", "unix:///tmp/x.sock", "A", "b=c"), r.values());
    assertEquals("oops\n", r.stderr());
    assertEquals("oops\n", Files.readString(dir.resolve("logs/start-x.err")));
  }

  @Test
  void killsAScriptThatRunsTooLong() throws Exception {
    Path script = Files.writeString(dir.resolve("slow.sh"), "echo K=v\nsleep 30\n");
    BedScript.Result r = new BedScript(script, dir).run(Duration.ofMillis(300));
    assertEquals(-1, r.exitCode());
    assertEquals(Map.of(), r.values());
    assertEquals("timed out after PT0.3S\n", r.stderr());
  }

  @Test
  void runsWithTheGivenEnvironment() throws Exception {
    Path script = Files.writeString(dir.resolve("env.sh"), "echo VM_DIR=$VM_DIR\n");
    BedScript.Result r =
        new BedScript(script, dir, Map.of("VM_DIR", "/tmp/x y")).run(Duration.ofSeconds(30));
    assertEquals(0, r.exitCode());
    assertEquals(Map.of("VM_DIR", "/tmp/x y"), r.values());
  }
}
