package io.criresmgr.proxy.core;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The test class path for the daemon processes, made of jar files only: JDK 17 maps a class data
 * sharing (CDS) archive only for a class path without non-empty directories, and the archive of the
 * daemon's classes roughly halves its start-up time, which dominates the crash test. A surefire or
 * failsafe manifest-only jar is expanded to the entries it lists.
 */
final class CrashClassPath {
  private CrashClassPath() {}

  /** This JVM's class path with every directory packed into a jar in {@code workDir}. */
  static String jarsOnly(Path workDir) throws IOException {
    List<String> jars = new ArrayList<>();
    int n = 0;
    for (Path entry : entries()) {
      if (Files.isDirectory(entry)) {
        Path jar = workDir.resolve("classes-" + n++ + ".jar");
        pack(entry, jar);
        jars.add(jar.toString());
      } else if (Files.exists(entry)) {
        jars.add(entry.toString());
      }
    }
    return String.join(File.pathSeparator, jars);
  }

  /** The entries of {@code java.class.path}, a manifest-only jar replaced by its entries. */
  static List<Path> entries() throws IOException {
    List<Path> entries = new ArrayList<>();
    for (String s : System.getProperty("java.class.path").split(File.pathSeparator, -1)) {
      if (!s.isEmpty()) {
        entries.add(Path.of(s).toAbsolutePath());
      }
    }
    if (entries.size() == 1 && Files.isRegularFile(entries.get(0))) {
      List<Path> listed = manifestClassPath(entries.get(0));
      if (!listed.isEmpty()) {
        return listed;
      }
    }
    return entries;
  }

  private static List<Path> manifestClassPath(Path jar) throws IOException {
    try (JarFile file = new JarFile(jar.toFile())) {
      String classPath =
          file.getManifest() == null
              ? null
              : file.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
      List<Path> listed = new ArrayList<>();
      if (classPath != null) {
        URI base = jar.toUri();
        for (String url : classPath.trim().split("\\s+", -1)) {
          listed.add(Path.of(base.resolve(url)));
        }
      }
      return listed;
    }
  }

  private static void pack(Path dir, Path jar) throws IOException {
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream packed = new JarOutputStream(out);
        Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        packed.putNextEntry(new JarEntry(dir.relativize(f).toString().replace('\\', '/')));
        Files.copy(f, packed);
        packed.closeEntry();
      }
    }
  }
}
