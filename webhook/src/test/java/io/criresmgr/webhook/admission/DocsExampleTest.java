package io.criresmgr.webhook.admission;

import static io.criresmgr.webhook.admission.Pods.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Keeps the annotations shown in docs/webhook.md equal to what the webhook writes. */
class DocsExampleTest {
  private static final Path DOC = Path.of("..", "docs", "webhook.md");

  @Test
  void theProbePodsAnnotationIsWhatTheDocShows() throws Exception {
    String pod =
        "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"resources\":"
            + "{\"requests\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"},\"limits\":{\"memory\":\"128Mi\"}}}]}}";
    assertEquals(shown("{\"initContainers\":{},"), ResourceAnnotation.valueOf(json(pod)));
  }

  @Test
  void theSidecarExampleIsWhatTheWebhookWrites() throws Exception {
    String pod =
        "{\"spec\":{\"initContainers\":[{\"name\":\"setup\"},{\"name\":\"proxy\","
            + "\"restartPolicy\":\"Always\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],"
            + "\"containers\":[{\"name\":\"app\"}]}}";
    assertEquals(shown("{\"initContainers\":{\"proxy\""), ResourceAnnotation.valueOf(json(pod)));
  }

  @Test
  void theFirstExampleIsThePodOfTheTests() throws Exception {
    String doc = Files.readString(DOC);
    int start = doc.indexOf("```json\n") + "```json\n".length();
    String shown = doc.substring(start, doc.indexOf("```", start)).replaceAll("\\s", "");
    assertEquals(Pods.POD_ANNOTATION, shown);
  }

  /** The one-line example in backquotes that starts with {@code prefix}. */
  private static String shown(String prefix) throws Exception {
    String doc = Files.readString(DOC);
    int start = doc.indexOf("`" + prefix) + 1;
    return doc.substring(start, doc.indexOf('`', start));
  }
}
