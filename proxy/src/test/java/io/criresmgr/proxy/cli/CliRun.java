package io.criresmgr.proxy.cli;

import io.criresmgr.proxy.CommandTree;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.ConfigStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One run of {@link CommandTree#run} with a recording launcher instead of the daemon. */
final class CliRun {
  final int status;
  final String out;
  final String err;
  final @Nullable DaemonOptions options;
  final @Nullable ConfigStore store;

  private CliRun(
      int status,
      String out,
      String err,
      @Nullable DaemonOptions options,
      @Nullable ConfigStore store) {
    this.status = status;
    this.out = out;
    this.err = err;
    this.options = options;
    this.store = store;
  }

  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    DaemonOptions[] seenOptions = new DaemonOptions[1];
    ConfigStore[] seenStore = new ConfigStore[1];
    int status =
        CommandTree.run(
            args,
            new PrintWriter(out),
            new PrintWriter(err),
            (options, store, early) -> {
              seenOptions[0] = options;
              seenStore[0] = store;
              return 0;
            },
            List.of());
    return new CliRun(status, out.toString(), err.toString(), seenOptions[0], seenStore[0]);
  }

  /** The options the daemon was started with; fails if it was not started. */
  DaemonOptions options() {
    return Objects.requireNonNull(options, () -> "daemon not started: " + err);
  }
}
