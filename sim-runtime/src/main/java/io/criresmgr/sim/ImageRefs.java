package io.criresmgr.sim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** Docker-style image reference normalization, as containerd applies it to CRI requests. */
final class ImageRefs {
  private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

  private ImageRefs() {}

  /**
   * Normalizes a reference: {@code busybox} becomes {@code docker.io/library/busybox:latest}, ids
   * ({@code sha256:...} or 64 hex digits) become {@code sha256:<hex>}, digests keep no tag.
   */
  static String normalize(String reference) {
    String ref = reference.strip();
    if (HEX64.matcher(ref).matches()) {
      return "sha256:" + ref;
    }
    if (isId(ref)) {
      return ref;
    }
    int at = ref.indexOf('@');
    String name = at < 0 ? ref : ref.substring(0, at);
    String suffix = at < 0 ? "" : ref.substring(at);
    String qualified = qualify(name);
    if (at < 0 && !hasTag(qualified)) {
      qualified += ":latest";
    }
    return qualified + suffix;
  }

  /** True for {@code sha256:<64 hex>}. */
  static boolean isId(String ref) {
    return ref.startsWith("sha256:") && HEX64.matcher(ref.substring(7)).matches();
  }

  /** True if the normalized reference is a digest reference ({@code name@sha256:...}). */
  static boolean isDigest(String normalized) {
    return normalized.contains("@");
  }

  /** The repository part of a normalized tag or digest reference. */
  static String repository(String normalized) {
    int at = normalized.indexOf('@');
    if (at >= 0) {
      return normalized.substring(0, at);
    }
    int colon = normalized.lastIndexOf(':');
    return colon > normalized.lastIndexOf('/') ? normalized.substring(0, colon) : normalized;
  }

  /** Hex SHA-256 of a string, used to derive stable fake ids and digests. */
  static String sha256(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JRE has SHA-256", e);
    }
  }

  private static String qualify(String name) {
    int slash = name.indexOf('/');
    String first = slash < 0 ? "" : name.substring(0, slash);
    boolean hasDomain =
        slash >= 0 && (first.contains(".") || first.contains(":") || first.equals("localhost"));
    if (hasDomain) {
      return name;
    }
    return slash < 0 ? "docker.io/library/" + name : "docker.io/" + name;
  }

  private static boolean hasTag(String name) {
    return name.lastIndexOf(':') > name.lastIndexOf('/');
  }
}
