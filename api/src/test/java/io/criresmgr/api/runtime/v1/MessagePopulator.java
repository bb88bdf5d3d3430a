package io.criresmgr.api.runtime.v1;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;

/**
 * Reflectively fills every field of a protobuf message with distinct, non-default values.
 *
 * <p>Repeated fields get two elements, maps two entries (maps are repeated entry messages to the
 * reflection API), nested messages are filled recursively up to {@link #MAX_DEPTH}, and of each
 * real oneof only the first member is set. Values are non-default on purpose: proto3 does not
 * serialise default scalars, so a default would look like an unset field.
 */
public final class MessagePopulator {
  /** Nesting limit; the CRI message graph is acyclic and far shallower than this. */
  static final int MAX_DEPTH = 16;

  static final int REPETITIONS = 2;

  private int counter;
  private int depthLimitHits;

  /** Fills {@code builder} completely and returns the built message. */
  public Message populate(Message.Builder builder) {
    fill(builder, 0);
    return builder.build();
  }

  /** How many message fields were left unset because {@link #MAX_DEPTH} was reached. */
  int depthLimitHits() {
    return depthLimitHits;
  }

  /** Whether the populator sets {@code field}: all fields except non-first oneof members. */
  static boolean isPopulated(FieldDescriptor field) {
    OneofDescriptor oneof = field.getRealContainingOneof();
    return oneof == null || oneof.getField(0).equals(field);
  }

  private void fill(Message.Builder builder, int depth) {
    for (FieldDescriptor field : builder.getDescriptorForType().getFields()) {
      if (!isPopulated(field)) {
        continue;
      }
      if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && depth >= MAX_DEPTH) {
        depthLimitHits++;
        continue;
      }
      if (field.isRepeated()) {
        for (int i = 0; i < REPETITIONS; i++) {
          builder.addRepeatedField(field, value(builder, field, depth));
        }
      } else {
        builder.setField(field, value(builder, field, depth));
      }
    }
  }

  private Object value(Message.Builder parent, FieldDescriptor field, int depth) {
    int n = ++counter;
    return switch (field.getJavaType()) {
      case INT -> n;
      case LONG -> 1_000_000_000_000L + n;
      case FLOAT -> n + 0.5f;
      case DOUBLE -> n + 0.25;
      case BOOLEAN -> true;
      case STRING -> field.getName() + "-" + n;
      case BYTE_STRING -> ByteString.copyFromUtf8(field.getName() + "#" + n);
      case ENUM -> enumValue(field.getEnumType(), n);
      case MESSAGE -> nested(parent.newBuilderForField(field), depth + 1);
    };
  }

  private Message nested(Message.Builder child, int depth) {
    fill(child, depth);
    return child.build();
  }

  /** Picks a value other than the zero default whenever the enum has one. */
  private static Object enumValue(EnumDescriptor type, int n) {
    int size = type.getValues().size();
    return size == 1 ? type.getValues().get(0) : type.getValues().get(1 + n % (size - 1));
  }
}
