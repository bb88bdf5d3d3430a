package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes other than x86_64: the distribution archive carries netty's epoll library for x86_64 and
 * aarch64 (netty loads the machine's), each .deb only its own architecture's, both in their jars
 * and unpacked in {@code lib/native} (which the launchers make java.library.path, so that netty
 * need not unpack one into /tmp); every library is an ELF shared object for the machine its name
 * says (docs/packages.md, "Other architectures").
 */
@Tag("e2e")
class DistributionNativesIT {
  private static final Path DIST = Path.of("").toAbsolutePath().getParent().resolve("dist/target");
  private static final int EM_X86_64 = 62;
  private static final int EM_AARCH64 = 183;

  @TempDir Path dir;

  @Test
  void theArchiveHasBothLibraries() throws Exception {
    Path tree = unpack("tar", "-xzf", only("cri-resmgr-*.tar.gz"), "-C");
    assertEquals(
        Map.of("aarch_64", EM_AARCH64, "x86_64", EM_X86_64),
        libraries(tree),
        "lib/ of the archive");
    assertEquals(
        Map.of("aarch_64", EM_AARCH64, "x86_64", EM_X86_64),
        unpacked(only(tree, "cri-resmgr-*").resolve("lib/native")),
        "lib/native of the archive, which the launchers name as java.library.path");
  }

  @Test
  void eachPackageHasItsOwnArchitecturesLibrary() throws Exception {
    Path amd64 = unpack("dpkg-deb", "-x", only("cri-resmgr_*_amd64.deb"));
    assertEquals(Map.of("x86_64", EM_X86_64), libraries(amd64), "the amd64 package");
    Path arm64 = unpack("dpkg-deb", "-x", only("cri-resmgr_*_arm64.deb"));
    assertEquals(Map.of("aarch_64", EM_AARCH64), libraries(arm64), "the arm64 package");
    assertEquals(
        Map.of("x86_64", EM_X86_64),
        unpacked(amd64.resolve("usr/lib/cri-resmgr/lib/native")),
        "lib/native of the amd64 package");
    assertEquals(
        Map.of("aarch_64", EM_AARCH64),
        unpacked(arm64.resolve("usr/lib/cri-resmgr/lib/native")),
        "lib/native of the arm64 package");
  }

  /** The one entry of {@code dir} matching {@code glob}. */
  private static Path only(Path dir, String glob) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      var matcher = dir.getFileSystem().getPathMatcher("glob:" + glob);
      List<Path> found = files.filter(p -> matcher.matches(p.getFileName())).toList();
      assertEquals(1, found.size(), glob + " in " + dir + ": " + found);
      return found.get(0);
    }
  }

  /** The files of {@code nativeDir}, each a netty epoll library: its architecture → ELF machine. */
  private static Map<String, Integer> unpacked(Path nativeDir) throws IOException {
    Map<String, Integer> found = new TreeMap<>();
    try (Stream<Path> files = Files.list(nativeDir)) {
      for (Path so : files.toList()) {
        String name = so.getFileName().toString();
        if (!name.matches("libnetty_transport_native_epoll_.*\\.so")) {
          throw new AssertionError("not a netty epoll library: " + so);
        }
        try (InputStream in = Files.newInputStream(so)) {
          found.put(
              name.replaceAll(".*epoll_(.*)\\.so$", "$1"), elfMachine(in.readNBytes(20), name));
        }
      }
    }
    return found;
  }

  private static String only(String glob) throws IOException {
    try (Stream<Path> files = Files.list(DIST)) {
      var matcher = DIST.getFileSystem().getPathMatcher("glob:" + glob);
      return files
          .filter(p -> matcher.matches(p.getFileName()))
          .findFirst()
          .orElseThrow(
              () -> new AssertionError("no " + glob + " in " + DIST + "; build dist first"))
          .toString();
    }
  }

  /** Unpacks with {@code command} followed by a new directory, which it returns. */
  private Path unpack(String... command) throws Exception {
    Path into = Files.createTempDirectory(dir, "unpacked");
    String[] full =
        Stream.concat(Stream.of(command), Stream.of(into.toString())).toArray(String[]::new);
    Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new AssertionError(String.join(" ", full) + " failed: " + out);
    }
    return into;
  }

  /** Every netty epoll library in the jars under {@code tree}: its architecture → ELF machine. */
  private static Map<String, Integer> libraries(Path tree) throws IOException {
    Map<String, Integer> found = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(tree)) {
      for (Path jar : walk.filter(p -> p.toString().endsWith(".jar")).toList()) {
        found.putAll(librariesIn(jar));
      }
    }
    return found;
  }

  private static Map<String, Integer> librariesIn(Path jar) throws IOException {
    Map<String, Integer> found = new TreeMap<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (JarEntry e : file.stream().toList()) {
        String name = e.getName();
        if (name.startsWith("META-INF/native/libnetty_transport_native_epoll_")) {
          String arch = name.replaceAll(".*epoll_(.*)\\.so$", "$1");
          try (InputStream in = file.getInputStream(e)) {
            found.put(arch, elfMachine(in.readNBytes(20), name));
          }
        }
      }
    }
    return found;
  }

  /** The e_machine of a little-endian 64-bit ELF shared object (e_type ET_DYN). */
  private static int elfMachine(byte[] header, String name) {
    boolean elf = header.length == 20 && header[0] == 0x7f && header[1] == 'E' && header[2] == 'L';
    if (!elf || header[4] != 2 || header[5] != 1 || header[16] != 3) {
      throw new AssertionError(name + " is not a little-endian 64-bit ELF shared object");
    }
    return (header[18] & 0xff) | (header[19] & 0xff) << 8;
  }
}
