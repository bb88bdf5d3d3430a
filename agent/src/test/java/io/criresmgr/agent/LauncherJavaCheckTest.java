package io.criresmgr.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launchers check the Java version before starting a JVM (from the runtime's release file) and
 * map the daemon's class data sharing archive when it exists (docs/packages.md, "Start-up") and
 * netty's unpacked library directory when the tree has one ("netty's native library"). A fake java
 * prints its arguments.
 */
class LauncherJavaCheckTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @TempDir Path dist;

  @Test
  void anOldJavaIsRefusedNamingItsVersion() throws Exception {
    Path java = fakeJava("jdk11", "11.0.2");
    Result r = run(Map.of("JAVA", java.toString()));
    assertEquals(1, r.status(), r.out());
    assertEquals(
        "cri-resmgr: needs Java 17 or newer, but "
            + java
            + " is Java 11.0.2; install openjdk-17-jre-headless or set JAVA to a Java 17 or newer"
            + " java binary\n",
        r.out());
  }

  @Test
  void aMissingJavaIsRefused() throws Exception {
    Result r = run(Map.of("JAVA", dist.resolve("nowhere/java").toString()));
    assertEquals(1, r.status(), r.out());
    assertTrue(r.out().startsWith("cri-resmgr: no Java runtime: "), r.out());
  }

  @Test
  void java17RunsAndTheArchiveIsMappedWhenItExists() throws Exception {
    Path java = fakeJava("jdk17", "17.0.15");
    Path archive = dist.resolve("cri-resmgr.jsa");
    Result without = run(Map.of("JAVA", java.toString(), "CDS_ARCHIVE", archive.toString()));
    assertEquals(0, without.status(), without.out());
    assertFalse(without.out().contains("-XX:SharedArchiveFile"), without.out());
    Files.writeString(archive, "archive");
    Result with = run(Map.of("JAVA", java.toString(), "CDS_ARCHIVE", archive.toString()));
    assertTrue(with.out().contains("-XX:SharedArchiveFile=" + archive + "\n"), with.out());
  }

  @Test
  void nettysUnpackedLibraryDirectoryIsTheLibraryPathWhenTheTreeHasIt() throws Exception {
    Path java = fakeJava("jdk17", "17.0.15");
    Result without = run(Map.of("JAVA", java.toString()));
    assertEquals(0, without.status(), without.out());
    assertFalse(without.out().contains("-Djava.library.path"), without.out());
    Files.createDirectories(dist.resolve("lib/native"));
    Result with = run(Map.of("JAVA", java.toString()));
    assertTrue(
        with.out().contains("\n-Djava.library.path=" + dist.resolve("lib/native") + "\n"),
        with.out());
  }

  /** A java in {@code name}/bin whose release file says {@code version}. */
  private Path fakeJava(String name, String version) throws Exception {
    Path home = Files.createDirectories(dist.resolve(name).resolve("bin")).getParent();
    Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
    Path java = home.resolve("bin/java");
    Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    return java;
  }

  private record Result(int status, String out) {}

  private Result run(Map<String, String> env) throws Exception {
    Path bin = Files.createDirectories(dist.resolve("bin"));
    Files.createDirectories(dist.resolve("lib"));
    for (String name : new String[] {"cri-resmgr-launch.sh", "cri-resmgr"}) {
      Files.copy(
          ROOT.resolve("bin").resolve(name),
          bin.resolve(name),
          StandardCopyOption.REPLACE_EXISTING);
    }
    Files.setPosixFilePermissions(
        bin.resolve("cri-resmgr"), PosixFilePermissions.fromString("rwx------"));
    ProcessBuilder builder = new ProcessBuilder(bin.resolve("cri-resmgr").toString());
    builder.environment().putAll(env);
    builder.redirectErrorStream(true);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(process.waitFor(), out);
  }
}
