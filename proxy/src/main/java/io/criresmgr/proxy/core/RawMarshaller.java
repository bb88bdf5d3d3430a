package io.criresmgr.proxy.core;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Passes messages as the bytes on the wire, so the relay never parses or re-encodes them.
 *
 * <p>Both directions avoid copies: gRPC drains the outgoing array straight into its frame buffer
 * ({@link Drainable}, {@link KnownLength}), and an incoming message whose length is known is read
 * into an array of exactly that size instead of growing 8 KiB buffers.
 */
public final class RawMarshaller implements MethodDescriptor.Marshaller<byte[]> {
  /** The shared instance; stateless. */
  public static final RawMarshaller INSTANCE = new RawMarshaller();

  private RawMarshaller() {}

  @Override
  public InputStream stream(byte[] value) {
    return new BytesStream(value);
  }

  @Override
  public byte[] parse(InputStream stream) {
    try {
      if (stream instanceof KnownLength) {
        int length = stream.available();
        byte[] message = stream.readNBytes(length);
        if (message.length == length && stream.read() == -1) {
          return message;
        }
        throw new IOException("message shorter or longer than its announced " + length + " bytes");
      }
      return stream.readAllBytes();
    } catch (IOException e) {
      throw Status.INTERNAL
          .withDescription("cannot read message")
          .withCause(e)
          .asRuntimeException();
    }
  }

  /** A raw-bytes descriptor for any method name, of type UNKNOWN (any streaming shape). */
  public static MethodDescriptor<byte[], byte[]> descriptor(String fullMethodName) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNKNOWN)
        .setFullMethodName(fullMethodName)
        .setRequestMarshaller(INSTANCE)
        .setResponseMarshaller(INSTANCE)
        .build();
  }

  /** The message bytes, drainable in one write. */
  private static final class BytesStream extends ByteArrayInputStream
      implements Drainable, KnownLength {
    BytesStream(byte[] bytes) {
      super(bytes);
    }

    @Override
    public int drainTo(OutputStream target) throws IOException {
      int n = count - pos;
      target.write(buf, pos, n);
      pos = count;
      return n;
    }
  }
}
