package io.criresmgr.nri.ttrpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.criresmgr.nri.ttrpc.TtrpcException.Code;
import io.criresmgr.nri.ttrpc.proto.Request;
import io.criresmgr.nri.ttrpc.proto.Response;
import io.criresmgr.nri.ttrpc.proto.Status;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The serving side of one ttrpc stream: reads requests, calls the method registered under {@code
 * "service/method"} and writes its response. Requests run one at a time on the reader thread, in
 * arrival order (NRI's runtime calls a plugin one request at a time).
 *
 * <p>Errors go back to the caller as ttrpc statuses: an unknown service or method is {@code
 * UNIMPLEMENTED}, a payload that does not parse {@code INVALID_ARGUMENT}, a message over 4 MiB
 * {@code RESOURCE_EXHAUSTED}, a {@link TtrpcException} its own code, any other exception {@code
 * UNKNOWN} with its message, an even or reused stream id {@code INVALID_ARGUMENT}. A frame that is
 * not a request ends the stream with an error (ttrpc's Go server skips it silently).
 */
public final class TtrpcServer implements AutoCloseable {
  /** One unary method: request payload in, response payload out. */
  @FunctionalInterface
  public interface Method {
    /** Handles one call. */
    byte[] call(ByteString request) throws Exception;
  }

  private static final Logger LOG = LoggerFactory.getLogger(TtrpcServer.class);

  private final InputStream in;
  private final OutputStream out;
  private final Map<String, Method> methods;
  private final String name;
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private int lastStream; // the reader thread's only

  /** A server for {@code methods} (keys {@code "full.Service/Method"}) over a stream pair. */
  public TtrpcServer(InputStream in, OutputStream out, Map<String, Method> methods, String name) {
    this.in = Objects.requireNonNull(in, "in");
    this.out = Objects.requireNonNull(out, "out");
    this.methods = Map.copyOf(methods);
    this.name = Objects.requireNonNull(name, "name");
  }

  /** Starts serving on a daemon thread. */
  public void start() {
    Thread reader = new Thread(this::serve, name + "-ttrpc-server");
    reader.setDaemon(true);
    reader.start();
  }

  /** Completes when the stream ends: normally at end of input, exceptionally on an error. */
  public CompletableFuture<Void> closed() {
    return closed;
  }

  /** Stops serving: closes both streams. */
  @Override
  public void close() {
    closeStreams();
    closed.complete(null);
  }

  private void serve() {
    try {
      for (TtrpcFrame frame = next(); frame != null; frame = next()) {
        respond(frame.streamId(), answer(frame));
      }
      closed.complete(null);
    } catch (IOException | RuntimeException e) {
      closed.completeExceptionally(e);
    } finally {
      closeStreams();
    }
  }

  /**
   * Checks the stream id as ttrpc's server does: odd, and increasing from one request to the next.
   */
  private Response answer(TtrpcFrame frame) {
    int id = frame.streamId();
    if ((id & 1) == 0) {
      return error(Code.INVALID_ARGUMENT, "stream id " + id + " is even; client streams are odd");
    }
    if (frame.type() != TtrpcFrame.REQUEST) {
      throw new TtrpcException(
          Code.INVALID_ARGUMENT,
          "ttrpc server "
              + name
              + " got a frame of type "
              + frame.type()
              + " on stream "
              + id
              + "; only requests (type 1) are served");
    }
    if (Integer.compareUnsigned(id, lastStream) <= 0) {
      return error(
          Code.INVALID_ARGUMENT,
          "stream id " + Integer.toUnsignedString(id) + " cannot be re-used and must increment");
    }
    lastStream = id;
    return handle(frame.payload());
  }

  private @org.jspecify.annotations.Nullable TtrpcFrame next() throws IOException {
    while (true) {
      try {
        return TtrpcCodec.read(in);
      } catch (TtrpcCodec.OversizedMessageException e) {
        respond(e.streamId(), error(e.code(), e.detail()));
      }
    }
  }

  private Response handle(byte[] payload) {
    Request request;
    try {
      request = Request.parseFrom(payload);
    } catch (InvalidProtocolBufferException e) {
      return error(Code.INVALID_ARGUMENT, "request does not parse: " + e.getMessage());
    }
    Method method = methods.get(request.getService() + "/" + request.getMethod());
    if (method == null) {
      return error(
          Code.UNIMPLEMENTED,
          "service " + request.getService() + ": method " + request.getMethod() + " not served");
    }
    return invoke(method, request);
  }

  private Response invoke(Method method, Request request) {
    try {
      return Response.newBuilder()
          .setStatus(Status.newBuilder().setCode(0))
          .setPayload(ByteString.copyFrom(method.call(request.getPayload())))
          .build();
    } catch (TtrpcException e) {
      return error(e.code(), e.detail());
    } catch (Exception e) {
      LOG.debug("ttrpc {}: {}/{} failed", name, request.getService(), request.getMethod(), e);
      return error(Code.UNKNOWN, String.valueOf(e));
    }
  }

  private static Response error(Code code, String message) {
    return Response.newBuilder()
        .setStatus(Status.newBuilder().setCode(code.value()).setMessage(message))
        .build();
  }

  private void respond(int streamId, Response response) throws IOException {
    TtrpcCodec.write(
        out, new TtrpcFrame(streamId, TtrpcFrame.RESPONSE, (byte) 0, response.toByteArray()));
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
