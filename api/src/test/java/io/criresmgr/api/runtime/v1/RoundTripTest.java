package io.criresmgr.api.runtime.v1;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Round-trips a fully populated request and response of every CRI method through the gRPC
 * marshaller of that method, so that a field lost or mangled by the generated code is caught.
 */
class RoundTripTest {

  static Stream<Arguments> methods() {
    return Stream.of(
            RuntimeServiceGrpc.getServiceDescriptor(), ImageServiceGrpc.getServiceDescriptor())
        .flatMap(service -> service.getMethods().stream())
        .map(method -> Arguments.of(method.getFullMethodName(), method));
  }

  @ParameterizedTest(name = "{0} request")
  @MethodSource("methods")
  void requestRoundTripsWithAllFields(String name, MethodDescriptor<?, ?> method)
      throws IOException {
    assertRoundTrip(method.getRequestMarshaller());
  }

  @ParameterizedTest(name = "{0} response")
  @MethodSource("methods")
  void responseRoundTripsWithAllFields(String name, MethodDescriptor<?, ?> method)
      throws IOException {
    assertRoundTrip(method.getResponseMarshaller());
  }

  @Test
  void populatorFillsNestedMapsListsAndScalars() {
    MessagePopulator populator = new MessagePopulator();
    ContainerStatusResponse response =
        (ContainerStatusResponse) populator.populate(ContainerStatusResponse.newBuilder());
    LinuxContainerResources linux = response.getStatus().getResources().getLinux();

    assertEquals(2, linux.getUnifiedCount());
    assertEquals(2, linux.getHugepageLimitsCount());
    assertTrue(linux.getCpusetCpus().startsWith("cpuset_cpus-"), linux.getCpusetCpus());
    assertTrue(linux.getCpuPeriod() != linux.getCpuQuota(), "distinct values per field");
    assertEquals(2, response.getStatus().getMountsCount());
    assertTrue(response.getStatus().getStopSignalValue() != 0, "non-default enum");
    assertTrue(FieldCounts.expected(ContainerStatusResponse.getDescriptor()) > 100);
  }

  private static <T> void assertRoundTrip(MethodDescriptor.Marshaller<T> marshaller)
      throws IOException {
    T prototype = ((MethodDescriptor.PrototypeMarshaller<T>) marshaller).getMessagePrototype();
    MessagePopulator populator = new MessagePopulator();
    @SuppressWarnings("unchecked") // built from the prototype's own builder, so it is a T
    T populated = (T) populator.populate(((Message) prototype).newBuilderForType());

    byte[] bytes = serialize(marshaller, populated);
    T parsed = marshaller.parse(new ByteArrayInputStream(bytes));

    assertSame(prototype.getClass(), parsed.getClass());
    assertEquals(populated, parsed);
    assertArrayEquals(bytes, serialize(marshaller, parsed), "re-serialisation differs");
    assertArrayEquals(((Message) populated).toByteArray(), bytes);
    assertAllFieldsSet((Message) parsed, populator);
  }

  private static void assertAllFieldsSet(Message parsed, MessagePopulator populator) {
    assertEquals(0, populator.depthLimitHits(), "message nesting exceeded the populator depth");
    long expected = FieldCounts.expected(parsed.getDescriptorForType());
    assertEquals(expected, FieldCounts.actual(parsed), "populated field values");
    assertEquals(parsed.getDescriptorForType().getFields().isEmpty(), expected == 0);
  }

  private static <T> byte[] serialize(MethodDescriptor.Marshaller<T> marshaller, T value)
      throws IOException {
    try (InputStream in = marshaller.stream(value)) {
      return in.readAllBytes();
    }
  }
}
