package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class RawMarshallerTest {
  private final byte[] bytes = {1, 2, 3, 4, 5};

  @Test
  void drainsTheWholeMessageInOneWrite() throws Exception {
    InputStream stream = RawMarshaller.INSTANCE.stream(bytes);
    assertEquals(5, stream.available());
    assertInstanceOf(KnownLength.class, stream);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(5, ((Drainable) stream).drainTo(out));
    assertArrayEquals(bytes, out.toByteArray());
    assertEquals(-1, stream.read());
  }

  @Test
  void parsesStreamsOfKnownAndUnknownLength() {
    assertArrayEquals(bytes, RawMarshaller.INSTANCE.parse(RawMarshaller.INSTANCE.stream(bytes)));
    InputStream plain = new ByteArrayInputStream(bytes) {};
    assertArrayEquals(bytes, RawMarshaller.INSTANCE.parse(plain));
  }

  @Test
  void rejectsAStreamLongerThanItsAnnouncedLength() {
    InputStream lying =
        new KnownLengthStream(bytes) {
          @Override
          public synchronized int available() {
            return 3;
          }
        };
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> RawMarshaller.INSTANCE.parse(lying));
    assertEquals(Status.Code.INTERNAL, e.getStatus().getCode());
  }

  private static class KnownLengthStream extends ByteArrayInputStream implements KnownLength {
    KnownLengthStream(byte[] b) {
      super(b);
    }
  }
}
