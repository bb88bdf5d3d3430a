package io.criresmgr.proxy.relay;

import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Passes messages as the bytes on the wire, so the relay never parses or re-encodes them. */
public final class RawMarshaller implements MethodDescriptor.Marshaller<byte[]> {
  /** The shared instance; stateless. */
  public static final RawMarshaller INSTANCE = new RawMarshaller();

  private RawMarshaller() {}

  @Override
  public InputStream stream(byte[] value) {
    return new ByteArrayInputStream(value);
  }

  @Override
  public byte[] parse(InputStream stream) {
    try {
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
}
