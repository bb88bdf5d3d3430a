package io.criresmgr.proxy.log;

/** Where {@link LogControl} sets logger levels; logback in production, a recorder in tests. */
@FunctionalInterface
public interface LevelSink {
  /** Sets logger {@code name} to DEBUG if {@code debug}, else to INFO. */
  void setDebug(String name, boolean debug);
}
