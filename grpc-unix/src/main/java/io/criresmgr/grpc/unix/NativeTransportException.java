package io.criresmgr.grpc.unix;

import java.util.Properties;

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
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String reason = root.getMessage() == null ? root.toString() : root.getMessage();
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
}
