package io.criresmgr.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server over real sockets: slow, large, many and bad clients. */
class BoundedHttpServerIT {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
  private static final HttpLimits LIMITS =
      new HttpLimits(
          REQUEST_TIMEOUT, Duration.ofSeconds(5), Duration.ofSeconds(2), 8, 1, 1, 16, 64);

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private BoundedHttpServer start(HttpLimits limits, HttpHandler handler) throws Exception {
    BoundedHttpServer server =
        BoundedHttpServer.start(
            "test-http",
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            limits,
            null,
            handler);
    open.add(server);
    return server;
  }

  private RawConnection connect(BoundedHttpServer server) throws Exception {
    RawConnection c = new RawConnection(server.port());
    open.add(c);
    return c;
  }

  private static HttpHandler echo(Set<String> methods) {
    return new HttpHandler() {
      @Override
      public Set<String> methods() {
        return methods;
      }

      @Override
      public Response handle(Request r) {
        return Response.text(200, r.method() + " " + r.path() + " " + r.body().length);
      }
    };
  }

  /** What a test's handler does with a request. */
  private interface Answer {
    Response apply(Request r) throws Exception;
  }

  private static HttpHandler getOnly(Answer answer) {
    return new HttpHandler() {
      @Override
      public Set<String> methods() {
        return Set.of("GET");
      }

      @Override
      public Response handle(Request r) throws Exception {
        return answer.apply(r);
      }
    };
  }

  /** Records what kills a thread until the test ends; the daemon exits on any of it. */
  private Queue<Throwable> recordUncaught() {
    Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
    Queue<Throwable> seen = new ConcurrentLinkedQueue<>();
    Thread.setDefaultUncaughtExceptionHandler((t, e) -> seen.add(e));
    open.add(() -> Thread.setDefaultUncaughtExceptionHandler(before));
    return seen;
  }

  private HttpResponse<String> get(BoundedHttpServer server, String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(Duration.ofSeconds(1))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aHalfRequestDelaysNobodyAndIsClosedAtItsDeadline() throws Exception {
    BoundedHttpServer server = start(LIMITS, echo(Set.of("GET")));
    RawConnection half = connect(server).send("GET /metrics HTTP/1.1\r\nHost: x\r\n");
    long started = System.nanoTime();
    // One worker only, yet the complete request is answered while the half one is held.
    assertEquals("GET /metrics 0\n", get(server, "/metrics").body());
    assertTrue(System.nanoTime() - started < REQUEST_TIMEOUT.toNanos(), "answered in time");
    assertEquals("", half.readUntilClosed(REQUEST_TIMEOUT.plusSeconds(2)));
  }

  @Test
  void aClientTricklingBytesIsClosedAtTheRequestDeadlineToo() throws Exception {
    BoundedHttpServer server = start(LIMITS, echo(Set.of("GET")));
    RawConnection slow = connect(server).send("GET / HTTP/1.1\r\n");
    long started = System.nanoTime();
    boolean closed = false;
    try {
      for (int i = 0; i < 100; i++) {
        slow.send("X");
        TimeUnit.MILLISECONDS.sleep(100);
      }
    } catch (java.io.IOException e) {
      closed = true;
    }
    long elapsed = System.nanoTime() - started;
    assertTrue(closed, "a write failed once the server closed");
    assertTrue(elapsed < REQUEST_TIMEOUT.plusSeconds(2).toNanos(), "closed after " + elapsed);
  }

  @Test
  void otherMethodsGet405BeforeTheirBodyIsRead() throws Exception {
    BoundedHttpServer server = start(LIMITS, echo(Set.of("GET", "HEAD")));
    String reply =
        connect(server)
            .send("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
            .readUntilClosed(Duration.ofSeconds(5));
    assertTrue(reply.startsWith("HTTP/1.1 405 "), reply);
    assertTrue(reply.contains("Allow: GET, HEAD\r\n"), reply);
    assertTrue(reply.endsWith("method POST not allowed, use GET, HEAD\n"), reply);
  }

  @Test
  void aDeclaredBodyOverTheLimitGets413BeforeItIsSent() throws Exception {
    BoundedHttpServer server = start(LIMITS, echo(Set.of("POST")));
    String reply =
        connect(server)
            .send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n")
            .readUntilClosed(Duration.ofSeconds(5));
    assertTrue(reply.startsWith("HTTP/1.1 413 "), reply);
    assertTrue(reply.endsWith("the body is larger than 16 bytes\n"), reply);
  }

  @Test
  void aChunkedBodyOverTheLimitGets413() throws Exception {
    BoundedHttpServer server = start(LIMITS, echo(Set.of("POST")));
    String reply =
        connect(server)
            .send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            .send("10\r\n0123456789abcdef\r\n1\r\nX\r\n0\r\n\r\n")
            .readUntilClosed(Duration.ofSeconds(5));
    assertTrue(reply.startsWith("HTTP/1.1 413 "), reply);
  }

  @Test
  void aBodyWithinTheLimitReachesTheHandler() throws Exception {
    BoundedHttpServer server = start(LIMITS, echo(Set.of("POST")));
    String reply =
        connect(server)
            .send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\n0123456789abcdef")
            .readResponse(Duration.ofSeconds(5));
    assertTrue(reply.startsWith("HTTP/1.1 200 "), reply);
    assertTrue(reply.endsWith("POST /x 16\n"), reply);
  }

  @Test
  void bodiesBeyondTheBudgetGet503() throws Exception {
    HttpLimits limits =
        new HttpLimits(
            REQUEST_TIMEOUT, Duration.ofSeconds(5), Duration.ofSeconds(2), 8, 1, 1, 16, 20);
    BoundedHttpServer server = start(limits, echo(Set.of("POST")));
    // The first request's 16 bytes are reserved while its body is on its way.
    connect(server).send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\n01234");
    String reply = "";
    for (int i = 0; i < 50 && !reply.startsWith("HTTP/1.1 503 "); i++) {
      reply =
          connect(server)
              .send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 8\r\n\r\n")
              .readUntilClosed(Duration.ofSeconds(5));
    }
    assertTrue(reply.startsWith("HTTP/1.1 503 "), reply);
  }

  @Test
  void aFullPoolAnswers503AtOnce() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    HttpHandler blocking =
        new HttpHandler() {
          @Override
          public Set<String> methods() {
            return Set.of("GET");
          }

          @Override
          public Response handle(Request r) throws InterruptedException {
            entered.countDown();
            release.await();
            return Response.text(200, "done");
          }
        };
    BoundedHttpServer server = start(LIMITS, blocking);
    CompletableFuture<HttpResponse<String>> running = getAsync(server);
    assertTrue(entered.await(5, TimeUnit.SECONDS));
    CompletableFuture<HttpResponse<String>> b = getAsync(server);
    CompletableFuture<HttpResponse<String>> c = getAsync(server);
    HttpResponse<?> first =
        (HttpResponse<?>) CompletableFuture.anyOf(b, c).get(5, TimeUnit.SECONDS);
    assertEquals(503, first.statusCode());
    release.countDown();
    assertEquals(200, running.get(5, TimeUnit.SECONDS).statusCode());
    assertEquals(503 + 200, b.get(5, TimeUnit.SECONDS).statusCode() + c.get().statusCode());
  }

  private CompletableFuture<HttpResponse<String>> getAsync(BoundedHttpServer server) {
    return client.sendAsync(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void connectionsBeyondTheLimitAreClosedAtOnce() throws Exception {
    HttpLimits limits =
        new HttpLimits(
            REQUEST_TIMEOUT, Duration.ofSeconds(5), Duration.ofSeconds(2), 2, 1, 1, 0, 0);
    BoundedHttpServer server = start(limits, echo(Set.of("GET")));
    connect(server);
    connect(server);
    RawConnection third = connect(server);
    assertEquals("", third.send("GET / HTTP/1.1\r\n").readUntilClosed(Duration.ofSeconds(1)));
  }

  @Test
  void aKeptAliveConnectionServesAgainThenIdlesOut() throws Exception {
    BoundedHttpServer server = start(LIMITS, echo(Set.of("GET")));
    RawConnection c = connect(server);
    String request = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
    assertTrue(c.send(request).readResponse(Duration.ofSeconds(5)).endsWith("GET /a 0\n"));
    assertTrue(c.send(request).readResponse(Duration.ofSeconds(5)).endsWith("GET /a 0\n"));
    assertEquals("", c.readUntilClosed(LIMITS.idleTimeout().plusSeconds(2)));
  }

  @Test
  void aMalformedRequestGets400() throws Exception {
    BoundedHttpServer server = start(LIMITS, echo(Set.of("GET")));
    String reply =
        connect(server)
            .send("GET /" + "a".repeat(5000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
            .readUntilClosed(Duration.ofSeconds(5));
    assertTrue(reply.startsWith("HTTP/1.1 400 "), reply);
  }

  @Test
  void aFinishedBodyGivesBackItsBudgetThoughItsConnectionStaysOpen() throws Exception {
    HttpLimits limits =
        new HttpLimits(
            REQUEST_TIMEOUT, Duration.ofSeconds(5), Duration.ofSeconds(30), 8, 1, 1, 16, 32);
    BoundedHttpServer server = start(limits, echo(Set.of("POST")));
    String chunkedPost =
        "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n";
    String sizedPost = "POST /s HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\n0123456789abcdef";
    Duration limit = Duration.ofSeconds(5);
    // Answered and kept alive, these two would otherwise hold 16 bytes each (a chunked body
    // reserves maxBody) until they close, leaving nothing for anyone else.
    RawConnection chunked = connect(server);
    assertTrue(chunked.send(chunkedPost).readResponse(limit).endsWith("POST /c 4\n"));
    RawConnection sized = connect(server);
    assertTrue(sized.send(sizedPost).readResponse(limit).endsWith("POST /s 16\n"));
    String reply = connect(server).send(sizedPost).readResponse(limit);
    assertTrue(reply.startsWith("HTTP/1.1 200 "), reply);
    assertTrue(reply.endsWith("POST /s 16\n"), reply);
    // Both stayed open all along, and serve again.
    assertTrue(chunked.send(chunkedPost).readResponse(limit).endsWith("POST /c 4\n"));
    assertTrue(sized.send(sizedPost).readResponse(limit).endsWith("POST /s 16\n"));
  }

  @Test
  void anErrorInTheHandlerIsA500AndKillsNoThread() throws Exception {
    Queue<Throwable> uncaught = recordUncaught();
    HttpHandler failing =
        getOnly(
            r -> {
              if (r.path().equals("/deep")) {
                throw new StackOverflowError();
              }
              return Response.text(200, "fine");
            });
    BoundedHttpServer server = start(LIMITS, failing);
    HttpResponse<String> deep = get(server, "/deep");
    assertEquals(500, deep.statusCode());
    assertEquals("internal error: java.lang.StackOverflowError\n", deep.body());
    assertEquals("fine\n", get(server, "/next").body());
    assertEquals(List.of(), List.copyOf(uncaught));
  }

  @Test
  void aRequestRunningWhileTheServerClosesKillsNoThread() throws Exception {
    Queue<Throwable> uncaught = recordUncaught();
    CountDownLatch entered = new CountDownLatch(1);
    AtomicReference<Thread> worker = new AtomicReference<>();
    HttpHandler blocking =
        getOnly(
            r -> {
              worker.set(Thread.currentThread());
              entered.countDown();
              new CountDownLatch(1).await(); // until close() interrupts the workers
              return Response.text(200, "never");
            });
    BoundedHttpServer server = start(LIMITS, blocking);
    connect(server).send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assertTrue(entered.await(5, TimeUnit.SECONDS));
    server.close();
    // The worker answers 500 to a connection whose event loop has stopped, then ends.
    worker.get().join(5000);
    assertFalse(worker.get().isAlive(), "the worker ended");
    assertEquals(List.of(), List.copyOf(uncaught));
  }

  @Test
  void aRequestArrivingWhileTheResponseIsWrittenClosesTheConnectionAfterIt() throws Exception {
    int size = 8 << 20; // more than the server's send and this client's receive buffers hold
    BoundedHttpServer server = start(LIMITS, getOnly(r -> Response.of(200, "x/y", new byte[size])));
    RawConnection c = new RawConnection(server.port(), 4096);
    open.add(c);
    c.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assertEquals("HTTP/1.1 200 OK", c.read(15));
    // The response is being written (it waits for this client to read), not yet done.
    c.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    String rest = c.readUntilClosed(Duration.ofSeconds(1));
    assertEquals(size, rest.length() - rest.indexOf("\r\n\r\n") - 4, "one whole body, then closed");
  }
}
