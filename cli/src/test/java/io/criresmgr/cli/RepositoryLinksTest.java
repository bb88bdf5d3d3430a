package io.criresmgr.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Repository-wide checks of the source and documentation files: every comment and document points
 * only at files in this repository (docs/adr/README.md), and the paths it names exist.
 */
class RepositoryLinksTest {
  // Surefire runs in the module directory.
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  /**
   * Pointers at documents that are not in the repository: numbered sections of an outside document
   * (our documents have named sections only), the shared directory next to the repository, and the
   * outside documents by name. Spelled as regular expressions so that this file does not match.
   */
  private static final List<Pattern> OUTSIDE =
      List.of(
          Pattern.compile("§\\s*\\d"),
          Pattern.compile("\\.\\./shared\\b"),
          Pattern.compile("/work[/]shared\\b"),
          Pattern.compile("\\b(DESIGN|STYLE)\\.md\\b"),
          Pattern.compile("\\b(cri-resource-manager|nri-plugins)\\.md\\b"),
          Pattern.compile("\\breference/java-stack\\b"));

  /** A path below docs/ named in any file, e.g. in a comment. */
  private static final Pattern DOCS_PATH = Pattern.compile("(?<![\\w./-])docs/[\\w./-]*?\\.md\\b");

  /** A relative Markdown link target, without its fragment. */
  private static final Pattern MARKDOWN_LINK = Pattern.compile("\\]\\(([^)#\\s:]+)(#[^)]*)?\\)");

  @Test
  void noFilePointsAtADocumentOutsideTheRepository() throws IOException {
    List<String> found = new ArrayList<>();
    for (String file : files()) {
      String text = text(file);
      for (Pattern p : OUTSIDE) {
        Matcher m = p.matcher(text);
        while (m.find()) {
          found.add(where(file, text, m.start()));
        }
      }
    }
    assertEquals(List.of(), found, "point at a file in this repository or state the fact itself");
  }

  @Test
  void everyNamedDocsPathExists() throws IOException {
    Set<String> missing = new TreeSet<>();
    for (String file : files()) {
      String text = text(file);
      Matcher m = DOCS_PATH.matcher(text);
      while (m.find()) {
        if (!Files.isRegularFile(ROOT.resolve(m.group()))) {
          missing.add(where(file, text, m.start()) + " (no " + m.group() + ")");
        }
      }
    }
    assertEquals(Set.of(), missing);
  }

  @Test
  void everyRelativeMarkdownLinkResolves() throws IOException {
    Set<String> broken = new TreeSet<>();
    for (String file : files()) {
      if (!file.endsWith(".md")) {
        continue;
      }
      String text = text(file);
      Matcher m = MARKDOWN_LINK.matcher(text);
      while (m.find()) {
        Path target = ROOT.resolve(file).getParent().resolve(m.group(1)).normalize();
        if (!target.startsWith(ROOT) || !Files.exists(target)) {
          broken.add(where(file, text, m.start()) + " (no " + m.group(1) + ")");
        }
      }
    }
    assertEquals(Set.of(), broken);
  }

  @Test
  void theDecisionRecordsAreListedInTheirIndex() throws IOException {
    Path dir = ROOT.resolve("docs/adr");
    String index = Files.readString(dir.resolve("README.md"), UTF_8);
    List<String> records;
    try (Stream<Path> s = Files.list(dir)) {
      records =
          s.map(p -> p.getFileName().toString())
              .filter(n -> n.matches("\\d{4}-[a-z0-9-]+\\.md"))
              .sorted()
              .toList();
    }
    assertTrue(records.size() >= 4, "records in " + dir + ": " + records);
    for (String record : records) {
      assertTrue(index.contains("(" + record + ")"), record + " is not linked from the index");
    }
  }

  /**
   * The repository's files as git sees them (tracked, or new and not ignored), text only; outside a
   * git checkout (a source archive), every file below the root but build output and hidden
   * directories.
   */
  private static List<String> files() throws IOException {
    List<String> names = Files.exists(ROOT.resolve(".git")) ? gitFiles() : walkedFiles();
    List<String> files = new ArrayList<>();
    for (String name : names) {
      Path path = ROOT.resolve(name);
      if (!name.isEmpty() && Files.isRegularFile(path) && isText(path)) {
        files.add(name);
      }
    }
    assertTrue(files.size() > 100, "files found in " + ROOT + ": " + files.size());
    return files;
  }

  private static List<String> gitFiles() throws IOException {
    Process git =
        new ProcessBuilder("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
            .directory(ROOT.toFile())
            .redirectErrorStream(true)
            .start();
    byte[] out;
    try (InputStream in = git.getInputStream()) {
      out = in.readAllBytes();
    }
    try {
      assertEquals(0, git.waitFor(), "git ls-files in " + ROOT + ": " + new String(out, UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    return List.of(new String(out, UTF_8).split("\0"));
  }

  private static List<String> walkedFiles() throws IOException {
    try (Stream<Path> s = Files.walk(ROOT)) {
      return s.filter(Files::isRegularFile)
          .map(p -> ROOT.relativize(p).toString())
          .filter(n -> !n.matches("(.*/)?(target|node_modules|\\.[^/]+)/.*"))
          .toList();
    }
  }

  private static boolean isText(Path path) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    try (InputStream in = Files.newInputStream(path)) {
      head.write(in.readNBytes(8192));
    }
    for (byte b : head.toByteArray()) {
      if (b == 0) {
        return false;
      }
    }
    return true;
  }

  private static String text(String file) throws IOException {
    return new String(Files.readAllBytes(ROOT.resolve(file)), UTF_8);
  }

  /** {@code file:line: the line}, for the line holding {@code offset}. */
  private static String where(String file, String text, int offset) {
    int start = text.lastIndexOf('\n', offset - 1) + 1;
    int end = text.indexOf('\n', offset);
    String line = text.substring(start, end < 0 ? text.length() : end).strip();
    return file + ":" + (text.substring(0, start).lines().count() + 1) + ": " + line;
  }
}
