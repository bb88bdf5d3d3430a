package io.criresmgr.proxy.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Message;
import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.MessagePopulator;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.daemon.Daemon;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every CRI method and the transport semantics, through a real daemon on real Unix sockets. */
class RelayIT {
  @TempDir static Path dir;
  static RecordingBackend backend;
  static Daemon daemon;
  static RawClient client;

  @BeforeAll
  static void start() throws Exception {
    backend = new RecordingBackend(dir.resolve("runtime.sock")).start();
    daemon =
        Daemon.start(
            TestDaemons.options(dir, dir.resolve("runtime.sock"), false),
            new ConfigStore(TestDaemons.config()));
    client = new RawClient(dir.resolve("relay/cri-resmgr.sock"));
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    daemon.close();
    backend.close();
  }

  @BeforeEach
  void clear() {
    backend.clear();
  }

  static Stream<MethodDescriptor<?, ?>> criMethods() {
    return Stream.concat(
        RuntimeServiceGrpc.getServiceDescriptor().getMethods().stream(),
        ImageServiceGrpc.getServiceDescriptor().getMethods().stream());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("criMethods")
  void relaysEveryMethodByteForByte(MethodDescriptor<?, ?> method) throws Exception {
    String name = method.getFullMethodName();
    byte[] request = populated(method.getRequestMarshaller());
    byte[] response = populated(method.getResponseMarshaller());
    boolean streaming = method.getType() == MethodDescriptor.MethodType.SERVER_STREAMING;
    List<byte[]> replies = streaming ? List.of(response, response, response) : List.of(response);
    backend.script(
        name, new RecordingBackend.Reply(replies, Status.OK, new Metadata(), new Metadata()));

    List<byte[]> got =
        streaming
            ? client.stream(name, request)
            : List.of(client.unary(name, request, new Metadata(), 5000));

    RecordingBackend.Received received = backend.next();
    assertEquals(name, received.method());
    assertArrayEquals(request, received.request().toByteArray());
    assertEquals(replies.size(), got.size());
    for (byte[] reply : got) {
      assertArrayEquals(response, reply);
    }
  }

  @Test
  void relaysMethodsOurProtoDoesNotKnow() throws Exception {
    for (String name :
        List.of(
            "runtime.v1.RuntimeService/FutureCall", "runtime.v1alpha2.ImageService/ListImages")) {
      byte[] request = {1, 2, 3, 4};
      backend.script(
          name,
          new RecordingBackend.Reply(
              List.of(new byte[] {9, 8, 7}), Status.OK, new Metadata(), new Metadata()));
      assertArrayEquals(new byte[] {9, 8, 7}, client.unary(name, request, new Metadata(), 5000));
      assertEquals(name, backend.next().method());
    }
  }

  @Test
  void preservesMetadataStatusDetailsAndTrailers() throws Exception {
    Metadata.Key<String> custom = Metadata.Key.of("x-custom", Metadata.ASCII_STRING_MARSHALLER);
    Metadata.Key<byte[]> details =
        Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER);
    Metadata.Key<String> reqKey = Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER);
    Metadata headers = new Metadata();
    headers.put(custom, "from-runtime-headers");
    Metadata trailers = new Metadata();
    trailers.put(custom, "from-runtime-trailers");
    trailers.put(details, new byte[] {8, 5, 18, 3, 'a', 'b', 'c'});
    String name = "runtime.v1.RuntimeService/ContainerStatus";
    backend.script(
        name,
        new RecordingBackend.Reply(
            List.of(),
            Status.NOT_FOUND.withDescription("container \"x\" not found"),
            headers,
            trailers));
    Metadata extra = new Metadata();
    extra.put(reqKey, "req-42");

    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class, () -> client.unary(name, new byte[] {}, extra, 5000));

    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
    assertEquals("container \"x\" not found", e.getStatus().getDescription());
    assertEquals("from-runtime-trailers", client.trailers.get().get(custom));
    assertArrayEquals(new byte[] {8, 5, 18, 3, 'a', 'b', 'c'}, client.trailers.get().get(details));
    assertEquals("from-runtime-headers", client.headers.get().get(custom));
    assertEquals("req-42", backend.next().headers().get(reqKey));
  }

  @Test
  void propagatesTheDeadline() throws Exception {
    client.unary("runtime.v1.RuntimeService/Status", new byte[] {}, new Metadata(), 3000);
    RecordingBackend.Received received = backend.next();
    assertNotNull(received.deadline(), "the runtime saw no deadline");
    long left = received.deadline().timeRemaining(TimeUnit.MILLISECONDS);
    assertTrue(left > 0 && left <= 3000, "deadline left at the runtime: " + left + " ms");
  }

  @Test
  void propagatesCancellation() throws Exception {
    String name = "runtime.v1.RuntimeService/GetContainerEvents";
    backend.script(
        name, new RecordingBackend.Reply(List.of(), Status.OK, new Metadata(), new Metadata()));
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> client.unary(name, new byte[] {}, new Metadata(), 300));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
    assertTrue(backend.awaitCancel(5000), "the runtime's call was not cancelled");
  }

  private static byte[] populated(MethodDescriptor.Marshaller<?> marshaller) {
    Object prototype = ((MethodDescriptor.PrototypeMarshaller<?>) marshaller).getMessagePrototype();
    return new MessagePopulator().populate(((Message) prototype).newBuilderForType()).toByteArray();
  }
}
