package io.criresmgr.proxy.dump;

import java.util.Locale;

/** How much of a method's traffic is dumped. */
public enum DumpLevel {
  /** Nothing. */
  OFF,
  /** Method name and outcome of each reply. */
  NAME,
  /** Every request and reply message in full. */
  FULL;

  /** Parses a level or one of cri-resmgr's aliases; null if {@code s} is not a level. */
  static DumpLevel parseOrNull(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "off", "suppress" -> OFF;
      case "name", "short" -> NAME;
      case "full", "verbose" -> FULL;
      default -> null;
    };
  }
}
