package io.criresmgr.grpc.unix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class NativeTransportExceptionTest {
  @Test
  void namesTheInnermostReasonTheLibraryPathAndTheDirectoryNettyUnpacksInto() {
    Properties props = new Properties();
    props.setProperty("java.library.path", "/usr/lib/cri-resmgr/lib/native");
    props.setProperty("java.io.tmpdir", "/tmp");
    UnsatisfiedLinkError netty =
        new UnsatisfiedLinkError("failed to load the required native library");
    netty.initCause(
        new UnsatisfiedLinkError("/tmp/libnetty.so: failed to map segment from shared object"));

    NativeTransportException e = NativeTransportException.of(netty, props);

    assertEquals(
        "cannot load netty's native epoll library, which Unix sockets need: /tmp/libnetty.so:"
            + " failed to map segment from shared object (it is looked for in java.library.path"
            + " \"/usr/lib/cri-resmgr/lib/native\", where the installed launchers point at"
            + " lib/native, and otherwise unpacked into \"/tmp\", which must be writable and not"
            + " mounted noexec; -Dio.netty.native.workdir=DIR names another directory)",
        e.getMessage());
    assertSame(netty, e.getCause());
  }

  @Test
  void namesTheLibraryPathsFailureTooWhichNettyKeepsAsASuppressedException() {
    Properties props = new Properties();
    props.setProperty("java.library.path", "/usr/lib/cri-resmgr/lib/native");
    UnsatisfiedLinkError unpacked =
        new UnsatisfiedLinkError("/tmp/libnetty.so: failed to map segment from shared object");
    unpacked.addSuppressed(
        new UnsatisfiedLinkError(
            "/usr/lib/cri-resmgr/lib/native/libnetty_transport_native_epoll_x86_64.so:"
                + " wrong ELF class: ELFCLASS32"));
    UnsatisfiedLinkError netty =
        new UnsatisfiedLinkError("failed to load the required native library");
    netty.initCause(unpacked);

    String m = String.valueOf(NativeTransportException.of(netty, props).getMessage());

    assertTrue(
        m.startsWith(
            "cannot load netty's native epoll library, which Unix sockets need: /tmp/libnetty.so:"
                + " failed to map segment from shared object;"
                + " /usr/lib/cri-resmgr/lib/native/libnetty_transport_native_epoll_x86_64.so:"
                + " wrong ELF class: ELFCLASS32 (it is looked for in java.library.path"),
        m);
  }

  @Test
  void nettysOwnDirectoryPropertiesComeBeforeJavasTemporaryDirectory() {
    Properties props = new Properties();
    props.setProperty("java.io.tmpdir", "/tmp");
    props.setProperty("io.netty.tmpdir", "/var/tmp/netty");
    assertEquals(
        "\"/var/tmp/netty\"", unpackedInto(NativeTransportException.of(new Error("x"), props)));
    props.setProperty("io.netty.native.workdir", "/run/cri-resmgr");
    assertEquals(
        "\"/run/cri-resmgr\"", unpackedInto(NativeTransportException.of(new Error("x"), props)));
  }

  private static String unpackedInto(NativeTransportException e) {
    String m = String.valueOf(e.getMessage());
    return m.replaceAll(".*unpacked into (\"[^\"]*\").*", "$1");
  }
}
