package io.criresmgr.proxy.core;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.ListContainersResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The id and state of every container of a ListContainers reply, read from its wire bytes without
 * parsing the rest (metadata, image, labels, annotations are skipped): exit detection needs no
 * more, and kubelet gets the runtime's bytes untouched (docs/benchmarks.md, "Kubelet-like polling
 * and resident memory").
 */
final class ContainerListing {
  private static final int CONTAINER =
      tag(ListContainersResponse.CONTAINERS_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
  private static final int ID =
      tag(Container.ID_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
  private static final int STATE = tag(Container.STATE_FIELD_NUMBER, WireFormat.WIRETYPE_VARINT);

  private ContainerListing() {}

  /** A field's tag on the wire: its number and wire type (the protobuf encoding). */
  private static int tag(int field, int wireType) {
    return field << 3 | wireType;
  }

  /**
   * The state of each listed container by id, as {@code ListContainersResponse.parseFrom(reply)}
   * would give it (an unknown state number is {@link ContainerState#UNRECOGNIZED}).
   *
   * @throws InvalidProtocolBufferException if {@code reply} is not a ListContainersResponse
   */
  static Map<String, ContainerState> states(byte[] reply) throws InvalidProtocolBufferException {
    CodedInputStream in = CodedInputStream.newInstance(reply);
    Map<String, ContainerState> states = new HashMap<>();
    try {
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (tag == CONTAINER) {
          int outer = in.pushLimit(in.readRawVarint32());
          readContainer(in, states);
          in.popLimit(outer);
        } else {
          skip(in, tag);
        }
      }
    } catch (InvalidProtocolBufferException e) {
      throw e;
    } catch (IOException e) {
      throw new InvalidProtocolBufferException(e);
    }
    return states;
  }

  private static void readContainer(CodedInputStream in, Map<String, ContainerState> states)
      throws IOException {
    String id = "";
    int state = 0;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == ID) {
        id = in.readStringRequireUtf8();
      } else if (tag == STATE) {
        state = in.readEnum();
      } else {
        skip(in, tag);
      }
    }
    ContainerState known = ContainerState.forNumber(state);
    states.put(id, known == null ? ContainerState.UNRECOGNIZED : known);
  }

  // An end-group tag that no start-group opened ends parseFrom's message too early, which then
  // fails; so does this.
  private static void skip(CodedInputStream in, int tag) throws IOException {
    if (!in.skipField(tag)) {
      throw new InvalidProtocolBufferException("an end-group tag without its group");
    }
  }
}
