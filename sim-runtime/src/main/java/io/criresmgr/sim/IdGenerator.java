package io.criresmgr.sim;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/** Generates the 64-hex-digit ids of pods and containers, like containerd does. */
@FunctionalInterface
public interface IdGenerator {

  /** Returns a new id; never the same twice. */
  String next();

  /** Random 256-bit ids (the default). */
  static IdGenerator random() {
    SecureRandom random = new SecureRandom();
    return () -> {
      byte[] bytes = new byte[32];
      random.nextBytes(bytes);
      return HexFormat.of().formatHex(bytes);
    };
  }

  /** Deterministic ids for tests: {@code 000...001}, {@code 000...002}, ... */
  static IdGenerator sequential() {
    AtomicLong counter = new AtomicLong();
    return () -> String.format("%064x", counter.incrementAndGet());
  }
}
