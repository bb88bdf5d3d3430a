package io.criresmgr.sim;

/** Fake URLs of a streaming server, as returned by Exec, Attach and PortForward. */
final class StreamingUrls {
  private static final String BASE = "http://127.0.0.1:10010/";

  private StreamingUrls() {}

  /** {@code http://127.0.0.1:10010/<kind>/<first 12 digits of id>}. */
  static String of(String kind, String id) {
    return BASE + kind + "/" + id.substring(0, Math.min(12, id.length()));
  }
}
