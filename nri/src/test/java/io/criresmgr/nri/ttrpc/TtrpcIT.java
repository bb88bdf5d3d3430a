package io.criresmgr.nri.ttrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.criresmgr.nri.ttrpc.TtrpcException.Code;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A ttrpc client and server over a plain Unix socket. */
@Timeout(30)
class TtrpcIT {
  private static final Duration SECOND = Duration.ofSeconds(1);

  @TempDir Path dir;
  private SocketPair pair;
  private TtrpcServer server;
  private TtrpcClient client;
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void start() throws Exception {
    pair = SocketPair.open(dir);
    Map<String, TtrpcServer.Method> methods =
        Map.of(
            "test.Echo/Echo", ByteString::toByteArray,
            "test.Echo/Fail",
                p -> {
                  throw new IllegalStateException("no " + p.toStringUtf8());
                },
            "test.Echo/Refuse",
                p -> {
                  throw new TtrpcException(Code.RESOURCE_EXHAUSTED, "no room");
                },
            "test.Echo/Slow",
                p -> {
                  release.await();
                  return new byte[0];
                });
    server =
        new TtrpcServer(SocketStreams.in(pair.b()), SocketStreams.out(pair.b()), methods, "server");
    client = new TtrpcClient(SocketStreams.in(pair.a()), SocketStreams.out(pair.a()), "client");
    server.start();
    client.start();
  }

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    client.close();
    server.close();
    pair.close();
  }

  @Test
  void callsRoundTripIncludingLargeMessages() {
    assertEquals(ByteString.copyFromUtf8("hi"), echo(ByteString.copyFromUtf8("hi")));
    ByteString big = ByteString.copyFrom(new byte[3 << 20]);
    assertEquals(big, echo(big));
  }

  @Test
  void unknownMethodIsUnimplemented() {
    var e =
        assertThrows(
            TtrpcException.class, () -> client.call("test.Echo", "Nope", ByteString.EMPTY, SECOND));
    assertEquals(Code.UNIMPLEMENTED, e.code());
    assertTrue(e.getMessage().contains("method Nope not served"), e.getMessage());
  }

  @Test
  void handlerExceptionReachesTheCaller() {
    var e =
        assertThrows(
            TtrpcException.class,
            () -> client.call("test.Echo", "Fail", ByteString.copyFromUtf8("luck"), SECOND));
    assertEquals(Code.UNKNOWN, e.code());
    assertTrue(e.getMessage().contains("no luck"), e.getMessage());
  }

  @Test
  void aHandlersTtrpcExceptionKeepsItsCodeAndMessage() {
    var e =
        assertThrows(
            TtrpcException.class,
            () -> client.call("test.Echo", "Refuse", ByteString.EMPTY, SECOND));
    assertEquals(Code.RESOURCE_EXHAUSTED, e.code());
    assertEquals("test.Echo/Refuse on client: no room", e.detail());
  }

  @Test
  void deadlinePassesWithoutHanging() {
    var e =
        assertThrows(
            TtrpcException.class,
            () -> client.call("test.Echo", "Slow", ByteString.EMPTY, Duration.ofMillis(200)));
    assertEquals(Code.DEADLINE_EXCEEDED, e.code());
  }

  @Test
  void oversizedRequestIsAnsweredResourceExhausted() throws Exception {
    var e =
        assertThrows(
            TtrpcException.class,
            () -> echo(ByteString.copyFrom(new byte[TtrpcCodec.MAX_MESSAGE + 1])));
    assertEquals(Code.RESOURCE_EXHAUSTED, e.code());
    assertEquals(ByteString.copyFromUtf8("still"), echo(ByteString.copyFromUtf8("still")));
  }

  @Test
  void oversizedFrameOnTheWireIsDiscardedAndAnswered() throws Exception {
    try (SocketPair raw =
        SocketPair.open(java.nio.file.Files.createDirectory(dir.resolve("raw")))) {
      var s = new TtrpcServer(SocketStreams.in(raw.b()), SocketStreams.out(raw.b()), Map.of(), "s");
      s.start();
      int length = TtrpcCodec.MAX_MESSAGE + 1;
      ByteBuffer frame = ByteBuffer.allocate(10 + length);
      frame.putInt(length).putInt(5).put(TtrpcFrame.REQUEST).put((byte) 0).position(10 + length);
      SocketStreams.out(raw.a()).write(frame.array());
      TtrpcFrame answer = TtrpcCodec.read(SocketStreams.in(raw.a()));
      assertEquals(5, answer.streamId());
      var status = io.criresmgr.nri.ttrpc.proto.Response.parseFrom(answer.payload()).getStatus();
      assertEquals(Code.RESOURCE_EXHAUSTED.value(), status.getCode());
      assertTrue(status.getMessage().contains("exceeds ttrpc's maximum"), status.getMessage());
      s.close();
    }
  }

  @Test
  void evenOrReusedStreamIdsAreRefused() throws Exception {
    try (SocketPair raw =
        SocketPair.open(java.nio.file.Files.createDirectory(dir.resolve("ids")))) {
      var s = new TtrpcServer(SocketStreams.in(raw.b()), SocketStreams.out(raw.b()), Map.of(), "s");
      s.start();
      var out = SocketStreams.out(raw.a());
      var in = SocketStreams.in(raw.a());
      for (int id : new int[] {2, 5, 5}) {
        TtrpcCodec.write(out, new TtrpcFrame(id, TtrpcFrame.REQUEST, (byte) 0, new byte[0]));
      }
      assertEquals("stream id 2 is even; client streams are odd", message(TtrpcCodec.read(in)));
      assertTrue(message(TtrpcCodec.read(in)).contains("method  not served"));
      assertEquals(
          "stream id 5 cannot be re-used and must increment", message(TtrpcCodec.read(in)));
      s.close();
    }
  }

  private static String message(TtrpcFrame frame) throws Exception {
    return io.criresmgr.nri.ttrpc.proto.Response.parseFrom(frame.payload())
        .getStatus()
        .getMessage();
  }

  @Test
  void garbageFrameEndsTheServerWithAClearError() throws Exception {
    pair.a().write(ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 0, 0, 0, 1, 9, 0}));
    var e = assertThrows(ExecutionException.class, () -> server.closed().get(5, TimeUnit.SECONDS));
    assertTrue(e.getCause().getMessage().contains("frame of type 9"), e.getMessage());
  }

  @Test
  void closingTheServerFailsCallsUnderWay() throws Exception {
    var call =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> client.call("test.Echo", "Slow", ByteString.EMPTY, Duration.ofSeconds(20)));
    Thread.sleep(200);
    server.close();
    var e = assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
    assertEquals(Code.UNAVAILABLE, ((TtrpcException) e.getCause()).code());
  }

  private ByteString echo(ByteString payload) {
    return client.call("test.Echo", "Echo", payload, Duration.ofSeconds(10));
  }
}
