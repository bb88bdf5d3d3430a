package io.criresmgr.proxy.daemon;

import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigListener;
import io.criresmgr.proxy.config.DumpConfig;
import io.criresmgr.proxy.config.InstrumentationConfig;
import io.criresmgr.proxy.dump.MessageDumper;
import io.criresmgr.proxy.metrics.Instrumentation;

/**
 * Applies the {@code dump} and {@code instrumentation} sections of a new configuration; sections
 * that did not change are left alone (so a reload does not truncate the dump file).
 */
final class SectionListener implements ConfigListener {
  private final MessageDumper dumper;
  private final Instrumentation instrumentation;
  // Tracked per section: if a later section fails, the rollback must still undo earlier ones.
  private InstrumentationConfig appliedInstrumentation;
  private DumpConfig appliedDump;

  SectionListener(Config applied, MessageDumper dumper, Instrumentation instrumentation) {
    this.appliedInstrumentation = applied.instrumentation();
    this.appliedDump = applied.dump();
    this.dumper = dumper;
    this.instrumentation = instrumentation;
  }

  @Override
  public synchronized void configChanged(Config config) throws Exception {
    if (!config.instrumentation().equals(appliedInstrumentation)) {
      instrumentation.configure(config.instrumentation());
      appliedInstrumentation = config.instrumentation();
    }
    if (!config.dump().equals(appliedDump)) {
      dumper.configure(config.dump());
      appliedDump = config.dump();
    }
  }
}
