package io.criresmgr.controllers;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a controller's failure affects a request (cri-resmgr {@code control/flags.go}).
 *
 * <p>{@link #REQUIRED}: a failure to start or in a hook fails the request. {@link #OPTIONAL}: a
 * start failure disables the controller, hook failures fail the request. {@link #RELAXED}: failures
 * are logged and ignored. {@link #DISABLED}: the controller does not run.
 */
public enum ControllerMode {
  DISABLED,
  REQUIRED,
  OPTIONAL,
  RELAXED;

  /**
   * Parses a mode case-insensitively, with cri-resmgr's aliases {@code disable} and {@code
   * mandatory}; the error names the accepted values.
   */
  public static ControllerMode parse(String value) {
    String text = value.trim();
    if (text.equalsIgnoreCase("disable")) {
      return DISABLED;
    }
    if (text.equalsIgnoreCase("mandatory")) {
      return REQUIRED;
    }
    for (ControllerMode mode : values()) {
      if (mode.name().equalsIgnoreCase(text)) {
        return mode;
      }
    }
    throw new IllegalArgumentException(
        "invalid controller mode \""
            + value
            + "\", expected one of "
            + Arrays.stream(values())
                .map(m -> m.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
