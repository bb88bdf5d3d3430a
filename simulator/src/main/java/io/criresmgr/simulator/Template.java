package io.criresmgr.simulator;

import java.util.Locale;

/**
 * The pod templates of the reference e2e suites: which variables become the containers' requests
 * and limits. The pod's QoS class follows from the resulting resources, as in Kubernetes.
 */
enum Template {
  /** Requests and limits {@code CPU} and {@code MEM}. */
  GUARANTEED,
  /** Requests {@code CPUREQ}, {@code MEMREQ}; limits {@code CPULIM}, {@code MEMLIM}. */
  BURSTABLE,
  /** No requests or limits. */
  BESTEFFORT;

  /** Parses {@code guaranteed}, {@code burstable} or {@code besteffort} (any case). */
  static Template parse(String text) {
    for (Template t : values()) {
      if (t.name().equalsIgnoreCase(text.trim())) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "unknown template \"" + text + "\", expected guaranteed, burstable or besteffort");
  }

  /** The lower-case name. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
