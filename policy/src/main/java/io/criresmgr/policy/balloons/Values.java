package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.OptionsReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Typed reads of option values that {@link OptionsReader} does not offer itself. */
final class Values {
  private Values() {}

  /** {@code key} as a whole number, or {@code dflt}; numeric strings count as numbers too. */
  static int integer(OptionsReader r, String key, int dflt) {
    JsonNode v = r.field(key).orElse(null);
    if (v == null) {
      return dflt;
    }
    if (v.isIntegralNumber() && v.canConvertToInt()) {
      return v.intValue();
    }
    if (v.isTextual() && v.textValue().matches("-?[0-9]{1,9}")) {
      return Integer.parseInt(v.textValue());
    }
    throw r.invalid(key, v, "expected a whole number");
  }

  /** {@code key} as a boolean, or {@code null} if not given. */
  static @Nullable Boolean optionalBool(OptionsReader r, String key) {
    return r.field(key).isPresent() ? r.bool(key, false) : null;
  }

  /** {@code key} as a list of strings (a single string is a list of one), or an empty list. */
  static List<String> strings(OptionsReader r, String key, String expected) {
    JsonNode v = r.field(key).orElse(null);
    if (v == null) {
      return List.of();
    }
    if (v.isTextual()) {
      return List.of(v.textValue());
    }
    if (!v.isArray()) {
      throw r.invalid(key, v, expected);
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : v) {
      if (!item.isTextual()) {
        throw r.invalid(key, item, expected);
      }
      out.add(item.textValue());
    }
    return out;
  }

  /**
   * {@code key} (a string, matched case-insensitively against the lower-case keys of {@code
   * choices}) as its choice, or {@code null} if not given or empty.
   */
  static <T> @Nullable T choice(OptionsReader r, String key, Map<String, T> choices, String exp) {
    String s = r.string(key, "");
    if (s.isEmpty()) {
      return null;
    }
    T t = choices.get(s.toLowerCase(Locale.ROOT));
    if (t == null) {
      throw r.invalid(key, r.field(key).orElseThrow(), exp);
    }
    return t;
  }
}
