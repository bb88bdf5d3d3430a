package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.ListContainersResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerListingTest {
  @Test
  void readsEveryContainersIdAndStateAsTheFullParseDoes() throws Exception {
    ListContainersResponse listing =
        ListContainersResponse.newBuilder()
            .addContainers(full("c0", ContainerState.CONTAINER_RUNNING))
            .addContainers(full("c1", ContainerState.CONTAINER_EXITED))
            .addContainers(full("c2", ContainerState.CONTAINER_CREATED))
            .addContainers(Container.newBuilder().setId("c3")) // state 0: created
            .build();

    Map<String, ContainerState> states = ContainerListing.states(listing.toByteArray());

    assertEquals(fullParse(listing.toByteArray()), states);
    assertEquals(4, states.size());
    assertEquals(ContainerState.CONTAINER_EXITED, states.get("c1"));
    assertEquals(ContainerState.CONTAINER_CREATED, states.get("c3"));
  }

  @Test
  void anEmptyListingHasNoContainers() throws Exception {
    assertEquals(Map.of(), ContainerListing.states(new byte[0]));
  }

  @Test
  void unknownFieldsAndStatesAndTheStateBeforeTheIdAreReadAsTheFullParseDoes() throws Exception {
    ByteArrayOutputStream container = new ByteArrayOutputStream();
    CodedOutputStream c = CodedOutputStream.newInstance(container);
    c.writeEnum(Container.STATE_FIELD_NUMBER, 2); // exited, before the id
    c.writeString(99, "a field of a newer CRI");
    c.writeString(Container.ID_FIELD_NUMBER, "late-id");
    c.flush();
    ByteArrayOutputStream reply = new ByteArrayOutputStream();
    CodedOutputStream r = CodedOutputStream.newInstance(reply);
    r.writeUInt64(7, 42); // unknown field of the response
    r.writeBytes(
        ListContainersResponse.CONTAINERS_FIELD_NUMBER,
        ByteString.copyFrom(container.toByteArray()));
    r.writeMessage(
        ListContainersResponse.CONTAINERS_FIELD_NUMBER,
        Container.newBuilder().setId("future").setStateValue(17).build());
    r.flush();

    Map<String, ContainerState> states = ContainerListing.states(reply.toByteArray());

    assertEquals(fullParse(reply.toByteArray()), states);
    assertEquals(ContainerState.CONTAINER_EXITED, states.get("late-id"));
    assertEquals(ContainerState.UNRECOGNIZED, states.get("future"));
  }

  @Test
  void bytesThatAreNoListingAreRefused() {
    byte[] truncated =
        ListContainersResponse.newBuilder()
            .addContainers(full("c0", ContainerState.CONTAINER_RUNNING))
            .build()
            .toByteArray();
    byte[] cut = java.util.Arrays.copyOf(truncated, truncated.length - 3);

    assertThrows(InvalidProtocolBufferException.class, () -> ContainerListing.states(cut));
    assertThrows(
        InvalidProtocolBufferException.class,
        () -> ContainerListing.states(new byte[] {(byte) 0x0a, (byte) 0x7f}));
  }

  @Test
  void aStrayEndGroupTagIsRefusedAsTheFullParseRefusesIt() {
    // field 7 end-group (7 << 3 | 4), at the top and inside a container
    byte[] top = {(byte) 0x3c};
    byte[] inside = {(byte) 0x0a, (byte) 0x01, (byte) 0x3c};
    for (byte[] reply : new byte[][] {top, inside}) {
      assertThrows(
          InvalidProtocolBufferException.class, () -> ListContainersResponse.parseFrom(reply));
      assertThrows(InvalidProtocolBufferException.class, () -> ContainerListing.states(reply));
    }
  }

  private static Container full(String id, ContainerState state) {
    return Container.newBuilder()
        .setId(id)
        .setPodSandboxId("pod-" + id)
        .setMetadata(ContainerMetadata.newBuilder().setName(id).setAttempt(1))
        .setImage(ImageSpec.newBuilder().setImage("busybox"))
        .setImageRef("sha256:0123")
        .setState(state)
        .setCreatedAt(1_700_000_000_000_000_000L)
        .putLabels("io.kubernetes.container.name", id)
        .putAnnotations("io.kubernetes.container.restartCount", "0")
        .build();
  }

  private static Map<String, ContainerState> fullParse(byte[] reply) throws IOException {
    Map<String, ContainerState> states = new HashMap<>();
    ListContainersResponse.parseFrom(reply)
        .getContainersList()
        .forEach(c -> states.put(c.getId(), c.getState()));
    return states;
  }
}
