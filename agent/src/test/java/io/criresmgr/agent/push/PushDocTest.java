package io.criresmgr.agent.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docs/node-agent.md says which gRPC errors are retried, as DaemonPusher does. */
class PushDocTest {
  private static final Path DOC =
      Path.of("").toAbsolutePath().getParent().resolve("docs/node-agent.md");

  @Test
  void theRetriedCodesAreExactlyTheTransportCodes() throws IOException {
    String bullet = bullet("- **Daemon away.**");
    Set<Status.Code> named =
        Arrays.stream(Status.Code.values())
            .filter(c -> bullet.contains("`" + c + "`"))
            .collect(Collectors.toSet());
    assertEquals(DaemonPusher.TRANSPORT, named);
    assertFalse(bullet.contains("any gRPC error"), bullet);
  }

  @Test
  void otherCodesAreDocumentedAsRejectionsNotRetried() throws IOException {
    String bullet = bullet("- **Refused by gRPC.**");
    assertTrue(bullet.contains("handled as a\n  rejection"), bullet);
    assertTrue(bullet.contains("not retried"), bullet);
    assertTrue(bullet.contains("`INVALID_ARGUMENT`"), bullet);
  }

  private static String bullet(String start) throws IOException {
    String doc = Files.readString(DOC);
    int from = doc.indexOf(start);
    assertTrue(from >= 0, "no " + start);
    int to = doc.indexOf("\n- ", from + 1);
    return doc.substring(from, to);
  }
}
