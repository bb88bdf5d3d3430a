package io.criresmgr.nri.ttrpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class MultiplexerIT {
  @TempDir Path dir;

  @Test
  void severalConnectionsCarryTheirOwnBytesConcurrently() throws Exception {
    try (SocketPair pair = SocketPair.open(dir);
        Multiplexer left = new Multiplexer(pair.a(), "left");
        Multiplexer right = new Multiplexer(pair.b(), "right")) {
      int conns = 4;
      List<byte[]> sent = new ArrayList<>();
      List<MuxConnection> receivers = new ArrayList<>();
      for (int id = 1; id <= conns; id++) {
        byte[] data = new byte[100_000 * id]; // several chunks each, interleaved on the trunk
        new Random(id).nextBytes(data);
        sent.add(data);
        receivers.add(right.open(id));
        left.open(id);
      }
      left.start();
      right.start();
      List<CompletableFuture<Void>> writers = new ArrayList<>();
      for (int id = 1; id <= conns; id++) {
        byte[] data = sent.get(id - 1);
        MuxConnection c = left.open(id);
        writers.add(CompletableFuture.runAsync(() -> write(c, data)));
      }
      for (int id = 1; id <= conns; id++) {
        InputStream in = receivers.get(id - 1).input();
        assertArrayEquals(sent.get(id - 1), in.readNBytes(sent.get(id - 1).length));
      }
      CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void peerClosingEndsEveryConnection() throws Exception {
    try (SocketPair pair = SocketPair.open(dir);
        Multiplexer right = new Multiplexer(pair.b(), "right")) {
      MuxConnection c = right.open(Multiplexer.PLUGIN_SERVICE_CONN);
      right.start();
      pair.a().close();
      assertEquals(-1, c.input().read());
      right.closed().get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void oversizedFrameClosesTheTrunkWithAClearError() throws Exception {
    try (SocketPair pair = SocketPair.open(dir);
        Multiplexer right = new Multiplexer(pair.b(), "right")) {
      MuxConnection c = right.open(1);
      right.start();
      pair.a().write(ByteBuffer.wrap(new byte[] {0, 0, 0, 1, 0x7f, 0, 0, 0}));
      var e = assertThrows(ExecutionException.class, () -> right.closed().get(5, TimeUnit.SECONDS));
      assertTrue(e.getCause().getMessage().contains("over the limit of 16777216"), e.getMessage());
      var read = assertThrows(IOException.class, () -> c.input().read());
      assertTrue(read.getMessage().contains("over the limit"), read.getMessage());
    }
  }

  @Test
  void framesForUnopenedConnectionsAreDropped() throws Exception {
    try (SocketPair pair = SocketPair.open(dir);
        Multiplexer left = new Multiplexer(pair.a(), "left");
        Multiplexer right = new Multiplexer(pair.b(), "right")) {
      MuxConnection c = right.open(2);
      right.start();
      left.start();
      left.open(7).output().write(new byte[] {1, 2, 3});
      left.open(2).output().write(new byte[] {4});
      assertEquals(4, c.input().read());
    }
  }

  @Test
  void connectionZeroIsReserved() throws IOException {
    try (SocketPair pair = SocketPair.open(dir);
        Multiplexer m = new Multiplexer(pair.a(), "m")) {
      var e = assertThrows(IllegalArgumentException.class, () -> m.open(0));
      assertTrue(e.getMessage().contains("reserved"), e.getMessage());
    }
  }

  private static void write(MuxConnection c, byte[] data) {
    try {
      for (int off = 0; off < data.length; off += 10_000) {
        c.output().write(data, off, Math.min(10_000, data.length - off));
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
