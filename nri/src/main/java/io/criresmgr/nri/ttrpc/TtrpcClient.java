package io.criresmgr.nri.ttrpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.criresmgr.nri.ttrpc.TtrpcException.Code;
import io.criresmgr.nri.ttrpc.proto.Request;
import io.criresmgr.nri.ttrpc.proto.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calling side of one ttrpc stream: unary calls on odd stream ids (1, 3, 5, ...), any number at
 * once, each with a deadline that is also sent to the server ({@code timeout_nano}).
 *
 * <p>A call fails with a {@link TtrpcException}: the server's status, {@code DEADLINE_EXCEEDED}
 * when the deadline passes, {@code UNAVAILABLE} when the stream closes first.
 */
public final class TtrpcClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TtrpcClient.class);

  private final InputStream in;
  private final OutputStream out;
  private final String name;
  private final AtomicInteger nextStream = new AtomicInteger(1);
  private final Map<Integer, CompletableFuture<Response>> pending = new ConcurrentHashMap<>();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();

  /** A client over a stream pair; {@code name} names its reader thread and its errors. */
  public TtrpcClient(InputStream in, OutputStream out, String name) {
    this.in = Objects.requireNonNull(in, "in");
    this.out = Objects.requireNonNull(out, "out");
    this.name = Objects.requireNonNull(name, "name");
  }

  /** Starts reading responses on a daemon thread. */
  public void start() {
    Thread reader = new Thread(this::readLoop, name + "-ttrpc-client");
    reader.setDaemon(true);
    reader.start();
  }

  /** Completes when the stream ends: normally at end of input, exceptionally on an error. */
  public CompletableFuture<Void> closed() {
    return closed;
  }

  /** Calls {@code service/method} and parses the response with {@code parser}. */
  public <T> T call(
      String service, String method, MessageLite request, Parser<T> parser, Duration timeout) {
    ByteString payload = call(service, method, request.toByteString(), timeout);
    try {
      return parser.parseFrom(payload);
    } catch (InvalidProtocolBufferException e) {
      throw new TtrpcException(
          Code.INTERNAL, service + "/" + method + ": response does not parse: " + e.getMessage());
    }
  }

  /** Calls {@code service/method} with raw payload bytes. */
  public ByteString call(String service, String method, ByteString payload, Duration timeout) {
    String what = service + "/" + method + " on " + name;
    int stream = nextStream.getAndAdd(2);
    CompletableFuture<Response> answer = new CompletableFuture<>();
    pending.put(stream, answer);
    try {
      send(stream, service, method, payload, timeout, what);
      return unwrap(await(answer, timeout, what), what);
    } finally {
      pending.remove(stream);
    }
  }

  /** Closes both streams; calls under way fail with {@code UNAVAILABLE}. */
  @Override
  public void close() {
    closeStreams();
    closed.complete(null);
    failPending(null);
  }

  private void send(
      int stream,
      String service,
      String method,
      ByteString payload,
      Duration timeout,
      String what) {
    if (closed.isDone()) {
      throw new TtrpcException(Code.UNAVAILABLE, what + ": the connection is closed");
    }
    Request request =
        Request.newBuilder()
            .setService(service)
            .setMethod(method)
            .setPayload(payload)
            .setTimeoutNano(timeout.toNanos())
            .build();
    try {
      synchronized (out) {
        TtrpcCodec.write(
            out, new TtrpcFrame(stream, TtrpcFrame.REQUEST, (byte) 0, request.toByteArray()));
      }
    } catch (IOException e) {
      throw new TtrpcException(Code.UNAVAILABLE, what + ": sending failed: " + e.getMessage(), e);
    }
  }

  private static Response await(CompletableFuture<Response> answer, Duration timeout, String what) {
    try {
      return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new TtrpcException(Code.DEADLINE_EXCEEDED, what + ": no response within " + timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TtrpcException(Code.CANCELLED, what + ": interrupted");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw cause instanceof TtrpcException t
          ? t
          : new TtrpcException(Code.UNAVAILABLE, what + ": " + cause, cause);
    }
  }

  private static ByteString unwrap(Response response, String what) {
    int code = response.getStatus().getCode();
    if (code != 0) {
      throw new TtrpcException(Code.of(code), what + ": " + response.getStatus().getMessage());
    }
    return response.getPayload();
  }

  private void readLoop() {
    Throwable failure = null;
    try {
      for (TtrpcFrame frame = next(); frame != null; frame = next()) {
        deliver(frame);
      }
    } catch (IOException | RuntimeException e) {
      failure = e;
    }
    if (failure == null) {
      closed.complete(null);
    } else {
      closed.completeExceptionally(failure);
    }
    closeStreams();
    failPending(failure);
  }

  private @org.jspecify.annotations.Nullable TtrpcFrame next() throws IOException {
    while (true) {
      try {
        return TtrpcCodec.read(in);
      } catch (TtrpcCodec.OversizedMessageException e) {
        CompletableFuture<Response> answer = pending.get(e.streamId());
        if (answer != null) {
          answer.completeExceptionally(e);
        }
      }
    }
  }

  private void deliver(TtrpcFrame frame) throws IOException {
    if (frame.type() != TtrpcFrame.RESPONSE) {
      throw new IOException(
          "ttrpc client " + name + " got a frame of type " + frame.type() + "; expected responses");
    }
    CompletableFuture<Response> answer = pending.get(frame.streamId());
    if (answer == null) {
      LOG.debug("ttrpc {}: response for stream {} nobody waits for", name, frame.streamId());
      return;
    }
    try {
      answer.complete(Response.parseFrom(frame.payload()));
    } catch (InvalidProtocolBufferException e) {
      answer.completeExceptionally(
          new TtrpcException(Code.INTERNAL, "response does not parse: " + e.getMessage()));
    }
  }

  private void failPending(@org.jspecify.annotations.Nullable Throwable cause) {
    String why = cause == null ? "closed" : "failed: " + cause.getMessage();
    TtrpcException e = new TtrpcException(Code.UNAVAILABLE, "ttrpc connection " + name + " " + why);
    pending.values().forEach(answer -> answer.completeExceptionally(e));
  }

  private void closeStreams() {
    try {
      in.close();
      out.close();
    } catch (IOException e) {
      LOG.debug("ttrpc {}: closing the streams failed", name, e);
    }
  }
}
