package io.criresmgr.nri.ttrpc;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/** Two connected ends of a real Unix socket in a test directory. */
record SocketPair(SocketChannel a, SocketChannel b) implements AutoCloseable {
  static SocketPair open(Path dir) throws IOException {
    var address = UnixDomainSocketAddress.of(dir.resolve("test.sock"));
    try (ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      listener.bind(address);
      SocketChannel a = SocketChannel.open(address);
      return new SocketPair(a, listener.accept());
    }
  }

  @Override
  public void close() throws IOException {
    a.close();
    b.close();
  }
}
