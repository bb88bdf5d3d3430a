package io.criresmgr.proxy.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.grpc.unix.EventLoops;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The relay server puts its socket in place without ever replacing a file at the path. */
class RelayServerTest {
  @TempDir Path dir;

  private final EventLoopGroup loops = EventLoops.epoll("test-relay", 1);

  @AfterEach
  void stop() {
    EventLoops.shutdown(loops);
  }

  @Test
  void theSocketAppearsAtItsPathAndTheTemporaryNameIsGone() throws Exception {
    Path socket = dir.resolve("relay.sock");
    RelayServer server = RelayServer.start(socket, loops, loops, NoMethods.REGISTRY, List.of());
    try {
      assertTrue(
          Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
              .isOther(),
          "a socket");
      assertFalse(Files.exists(RelayServer.bindingName(socket), LinkOption.NOFOLLOW_LINKS));
    } finally {
      server.close();
    }
  }

  @Test
  void aFileThatTookThePathIsNeitherReplacedNorRemoved() throws Exception {
    Path socket = dir.resolve("relay.sock");
    Files.writeString(socket, "another program's\n");

    RelayException e =
        assertThrows(
            RelayException.class,
            () -> RelayServer.start(socket, loops, loops, NoMethods.REGISTRY, List.of()));

    assertEquals(
        "cannot serve on " + socket + ": another file took the path; refusing to replace it",
        e.getMessage());
    assertEquals("another program's\n", Files.readString(socket));
    assertFalse(Files.exists(RelayServer.bindingName(socket), LinkOption.NOFOLLOW_LINKS));
  }
}
