package io.criresmgr.proxy.log;

/** Where {@link KlogControl} turns time stamps of log lines off and on; logback in production. */
@FunctionalInterface
public interface HeaderSink {
  /** Drops the time stamp from log lines if {@code skip}, else restores it. */
  void skipHeaders(boolean skip);
}
