package io.criresmgr.grpc.unix;

import java.util.LinkedHashSet;
import java.util.Properties;
import java.util.Set;

/**
 * Netty's native epoll library, without which no Unix socket can be served or connected, cannot be
 * loaded. The message names what failed and where netty looked (docs/packages.md, "netty's native
 * library").
 */
public final class NativeTransportException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  NativeTransportException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The exception for {@code cause}, netty's reason, with the system properties {@code props}. */
  static NativeTransportException of(Throwable cause, Properties props) {
    // netty tries java.library.path first and then unpacks the library: the first failure is a
    // suppressed exception of the second, and both can matter (a library in lib/native that does
    // not load, then a /tmp mounted noexec).
    Set<String> reasons = new LinkedHashSet<>();
    reasons.add(reason(cause));
    suppressedReasons(cause, reasons, 0);
    String reason = String.join("; ", reasons);
    String workdir =
        props.getProperty(
            "io.netty.native.workdir",
            props.getProperty("io.netty.tmpdir", props.getProperty("java.io.tmpdir", "/tmp")));
    String libraryPath = props.getProperty("java.library.path", "");
    return new NativeTransportException(
        "cannot load netty's native epoll library, which Unix sockets need: "
            + reason
            + " (it is looked for in java.library.path \""
            + libraryPath
            + "\", where the installed launchers point at lib/native, and otherwise unpacked into"
            + " \""
            + workdir
            + "\", which must be writable and not mounted noexec; -Dio.netty.native.workdir=DIR"
            + " names another directory)",
        cause);
  }

  /** The message of the innermost cause of {@code t}. */
  private static String reason(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.toString() : root.getMessage();
  }

  private static void suppressedReasons(Throwable t, Set<String> reasons, int depth) {
    if (depth > 4) {
      return;
    }
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      for (Throwable s : c.getSuppressed()) {
        reasons.add(reason(s));
        suppressedReasons(s, reasons, depth + 1);
      }
    }
  }
}
