package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Keeps the example in docs/cache-format.md loadable and complete. */
class DocsExampleTest {
  // Surefire runs in the module directory.
  private static final Path DOC = Path.of("..", "docs", "cache-format.md");

  @Test
  void theDocumentedExampleIsACompleteCacheFile() throws Exception {
    String example = firstJsonBlock(Files.readString(DOC));
    CacheSnapshot snapshot = SnapshotJson.decode(example.getBytes(UTF_8));
    ObjectMapper json = new ObjectMapper();
    // Unknown keys would be ignored on load, so also check the example has exactly our keys.
    assertEquals(json.readTree(example), json.readTree(SnapshotJson.encode(snapshot)));

    Pod pod = snapshot.pods().get("5d2f8e");
    assertEquals(PodResourcesAnnotation.fromAnnotations(pod.annotations()), pod.resources());
    assertEquals(QosClass.fromCgroupParent(pod.cgroupParent()), pod.qosClass());
    Container app = snapshot.containers().get(Container.cacheId(pod.uid(), "app"));
    assertEquals(pod.resources().find("app").orElseThrow(), app.resources());
    assertEquals(Set.of("cri"), app.pending());
    assertEquals(CpuSet.range(2, 3), app.assignment().cpus());
  }

  private static String firstJsonBlock(String markdown) throws IOException {
    int start = markdown.indexOf("```json\n");
    int end = markdown.indexOf("\n```", start + 1);
    if (start < 0 || end < 0) {
      throw new IOException(DOC + " has no ```json block");
    }
    return markdown.substring(start + "```json\n".length(), end);
  }
}
