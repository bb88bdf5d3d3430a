package io.criresmgr.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs shell scripts as root inside the VM bed, through the guest's command server (what {@code
 * e2e/vm/vm-exec.sh} does, without a process per call): one TCP connection per script to the port
 * the host forwards, the script sent base64-encoded on one line, its merged output back followed by
 * {@code \037CRIVM_RC=<exit status>}. See {@code e2e/vm/guest/cmd-handler.sh}.
 */
final class VmShell {
  private static final String TRAILER = "\037CRIVM_RC=";

  private final int port;

  /** The command server forwarded to {@code 127.0.0.1:port}. */
  VmShell(int port) {
    this.port = port;
  }

  /** What a script printed (stdout and stderr merged) and its exit status. */
  record Result(int exitCode, String output) {
    /** The output, or an exception with it when the exit status is not 0. */
    String orThrow(String what) throws IOException {
      if (exitCode != 0) {
        throw new IOException(
            what + " failed in the VM with exit status " + exitCode + ":\n" + output);
      }
      return output;
    }
  }

  /** Runs {@code script} under bash in the VM, waiting at most {@code timeout}. */
  Result run(String script, Duration timeout) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(
          new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port), 10_000);
      s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
      OutputStream out = s.getOutputStream();
      out.write(Base64.getEncoder().encode(script.getBytes(StandardCharsets.UTF_8)));
      out.write('\n');
      out.flush();
      return parse(readAll(s.getInputStream()));
    }
  }

  /** Runs {@code script} (at most 2 minutes) and returns its output; throws unless it exits 0. */
  String check(String script) throws IOException {
    return run(script, Duration.ofMinutes(2)).orThrow(firstLine(script));
  }

  /** The trimmed content of file {@code path} in the VM. */
  String read(String path) throws IOException {
    return check("cat " + quote(path)).trim();
  }

  /**
   * The trimmed contents of files {@code names} in directory {@code dir}, by name, in one call; a
   * file that cannot be read maps to {@code "<error: ...>"}.
   */
  Map<String, String> readAll(String dir, String... names) throws IOException {
    StringBuilder script = new StringBuilder("cd " + quote(dir) + " || exit 1\n");
    for (String name : names) {
      script
          .append("printf '\\036%s\\035' ")
          .append(quote(name))
          .append("; cat ")
          .append(quote(name))
          .append(" 2>&1 || printf '<error>'\n");
    }
    String out = check(script.toString());
    Map<String, String> values = new LinkedHashMap<>();
    for (String record : out.split("\036", -1)) {
      int sep = record.indexOf('\035');
      if (sep >= 0) {
        values.put(record.substring(0, sep), record.substring(sep + 1).trim());
      }
    }
    return values;
  }

  /** Writes {@code value} into file {@code path} in the VM (as {@code echo value > path}). */
  void write(String path, String value) throws IOException {
    check("printf '%s\\n' " + quote(value) + " > " + quote(path));
  }

  /** {@code value} as one single-quoted shell word. */
  static String quote(String value) {
    return "'" + value.replace("'", "'\\''") + "'";
  }

  static Result parse(String reply) throws IOException {
    int at = reply.lastIndexOf(TRAILER);
    if (at < 0) {
      throw new IOException("the VM's command server closed without an exit status:\n" + reply);
    }
    String rc = reply.substring(at + TRAILER.length()).trim();
    try {
      return new Result(Integer.parseInt(rc), reply.substring(0, at));
    } catch (NumberFormatException e) {
      throw new IOException("bad exit status from the VM's command server: " + rc, e);
    }
  }

  private static String readAll(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    in.transferTo(buf);
    return buf.toString(StandardCharsets.UTF_8);
  }

  private static String firstLine(String script) {
    String line = script.strip().lines().findFirst().orElse("");
    return line.length() <= 80 ? line : line.substring(0, 80) + "...";
  }
}
