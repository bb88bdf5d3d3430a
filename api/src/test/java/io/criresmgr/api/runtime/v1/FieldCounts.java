package io.criresmgr.api.runtime.v1;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.List;
import java.util.Map;

/**
 * Counts field values, so a round-trip test can prove that every field was really populated.
 *
 * <p>Each value counts one (each element of a repeated field, each map entry), plus the count of
 * its own fields when it is a message. {@link #expected} derives the count from the descriptor
 * alone, {@link #actual} from the set fields of a message instance.
 */
final class FieldCounts {
  private FieldCounts() {}

  /** Count a fully populated instance of {@code type} must have (see {@link MessagePopulator}). */
  static long expected(Descriptor type) {
    return expected(type, 0);
  }

  /** Count of values actually present in {@code message}, recursively. */
  static long actual(Message message) {
    long total = 0;
    for (Map.Entry<FieldDescriptor, Object> entry : message.getAllFields().entrySet()) {
      for (Object value : values(entry.getKey(), entry.getValue())) {
        total += 1 + (value instanceof Message nested ? actual(nested) : 0);
      }
    }
    return total;
  }

  private static long expected(Descriptor type, int depth) {
    long total = 0;
    for (FieldDescriptor field : type.getFields()) {
      boolean message = field.getJavaType() == FieldDescriptor.JavaType.MESSAGE;
      if (!MessagePopulator.isPopulated(field)
          || (message && depth >= MessagePopulator.MAX_DEPTH)) {
        continue;
      }
      long one = 1 + (message ? expected(field.getMessageType(), depth + 1) : 0);
      total += (field.isRepeated() ? MessagePopulator.REPETITIONS : 1) * one;
    }
    return total;
  }

  private static List<?> values(FieldDescriptor field, Object value) {
    return field.isRepeated() ? (List<?>) value : List.of(value);
  }
}
