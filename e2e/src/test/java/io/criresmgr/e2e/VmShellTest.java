package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The host side of the VM's command channel, against a stand-in for the guest's handler. */
class VmShellTest {
  @Test
  void parsesOutputAndExitStatus() throws IOException {
    assertEquals(new VmShell.Result(3, "a\nb\n"), VmShell.parse("a\nb\n\037CRIVM_RC=3\n"));
    assertEquals(new VmShell.Result(0, ""), VmShell.parse("\037CRIVM_RC=0\n"));
    var e = assertThrows(IOException.class, () -> VmShell.parse("partial output"));
    assertTrue(e.getMessage().startsWith("the VM's command server closed without"), e.getMessage());
  }

  @Test
  void quotesForTheShell() {
    assertEquals("'a b'", VmShell.quote("a b"));
    assertEquals("'it'\\''s'", VmShell.quote("it's"));
  }

  @Test
  void sendsTheScriptBase64OnOneLineAndReadsTheReply() throws Exception {
    AtomicReference<String> received = new AtomicReference<>("");
    try (ServerSocket server = new ServerSocket(0)) {
      Thread guest =
          new Thread(
              () -> {
                try (Socket s = server.accept()) {
                  var in = s.getInputStream();
                  StringBuilder line = new StringBuilder();
                  for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
                    line.append((char) c);
                  }
                  received.set(line.toString());
                  OutputStream out = s.getOutputStream();
                  out.write(
                      "\036cpuset.cpus\0351\n\036memory.max\035max\n\037CRIVM_RC=0\n"
                          .getBytes(StandardCharsets.UTF_8));
                } catch (IOException e) {
                  received.set("failed: " + e);
                }
              });
      guest.start();
      Map<String, String> files =
          new VmShell(server.getLocalPort()).readAll("/c", "cpuset.cpus", "memory.max");
      guest.join(Duration.ofSeconds(10).toMillis());
      assertEquals(Map.of("cpuset.cpus", "1", "memory.max", "max"), files);
      String script =
          new String(Base64.getDecoder().decode(received.get()), StandardCharsets.UTF_8);
      assertTrue(script.startsWith("cd '/c' || exit 1\n"), script);
      assertTrue(script.contains("cat 'memory.max'"), script);
    }
  }
}
