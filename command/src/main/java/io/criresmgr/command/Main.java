package io.criresmgr.command;

import io.criresmgr.proxy.CommandTree;
import io.criresmgr.sim.SimRuntimeCommand;
import io.criresmgr.simulator.ShowCommand;
import io.criresmgr.simulator.SimulateCommand;
import java.util.List;

/** Entry point of {@code cri-resmgr}: the daemon's command and every subcommand. */
public final class Main {
  private Main() {}

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    CommandTree.runAndExit(args, Main::subcommands);
  }

  /** The subcommands of {@code cri-resmgr}, each a picocli {@code @Command}. */
  static List<Object> subcommands() {
    // SUBCOMMANDS: one line per picocli @Command class (implementing Callable<Integer>), named
    // here and not discovered, so that none can be missing from the program.
    return List.of(new SimRuntimeCommand(), new SimulateCommand(), new ShowCommand());
  }
}
