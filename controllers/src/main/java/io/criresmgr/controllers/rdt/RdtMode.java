package io.criresmgr.controllers.rdt;

import java.util.Locale;
import java.util.Optional;

/** {@code rdt.options.mode}: what the controller does with resctrl. */
public enum RdtMode {
  /** Apply the configured classes (the default). */
  FULL("Full"),
  /** Use the resctrl groups that already exist, create none. */
  DISCOVERY("Discovery"),
  /** Drop cri-resmgr's groups; every container goes to the root class. */
  DISABLED("Disabled");

  private final String label;

  RdtMode(String label) {
    this.label = label;
  }

  /** The configuration spelling, e.g. {@code Full}. */
  public String label() {
    return label;
  }

  /** The mode spelled {@code text} (case-insensitive), if any. */
  public static Optional<RdtMode> parse(String text) {
    for (RdtMode m : values()) {
      if (m.label.toLowerCase(Locale.ROOT).equals(text.toLowerCase(Locale.ROOT))) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }
}
