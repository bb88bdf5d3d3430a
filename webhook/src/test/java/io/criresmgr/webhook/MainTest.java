package io.criresmgr.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void helpListsTheFlags() {
    assertEquals(0, run("-h"));
    assertTrue(out.toString().contains("--cert-file=<certFile>"), out.toString());
    assertTrue(out.toString().contains("--port=<port>"), out.toString());
  }

  @Test
  void certificateAndKeyAreRequired() {
    assertEquals(1, run("-port", "8443"));
    assertTrue(
        err.toString()
            .startsWith(
                "cri-resmgr-webhook: Missing required options: '--cert-file=<certFile>',"
                    + " '--key-file=<keyFile>'"),
        err.toString());
  }

  @Test
  void aPortOutOfRangeIsAUsageError() {
    assertEquals(1, run("-port=70000", "-cert-file=c", "-key-file=k"));
    assertTrue(
        err.toString().startsWith("cri-resmgr-webhook: invalid -port 70000: expected 0 to 65535"),
        err.toString());
  }

  @Test
  void anUnreadableCertificateIsReportedOnce() {
    Path cert = dir.resolve("svc.crt");
    assertEquals(1, run("-cert-file", cert.toString(), "-key-file", "k", "-port", "0"));
    String message = err.toString();
    assertTrue(
        message.startsWith("cri-resmgr-webhook: cannot read certificate file " + cert + ": "),
        message);
    assertEquals(1, message.lines().count(), message);
  }

  private int run(String... args) {
    return Main.run(
        args,
        new PrintWriter(out, true),
        new PrintWriter(err, true),
        server -> {
          throw new AssertionError("must not start");
        });
  }
}
