package io.criresmgr.agent.probe;

import io.criresmgr.cli.Cli;
import io.criresmgr.cli.LogbackProvider;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.List;

/** Entry point of {@code cri-resmgr-agent-probe}. */
public final class ProbeMain {
  private ProbeMain() {}

  /** Probes the agent; exits 0 if healthy, 1 with the reason on stderr otherwise. */
  public static void main(String[] args) {
    LogbackProvider.select();
    Charset charset = Charset.defaultCharset();
    PrintWriter out = new PrintWriter(System.out, false, charset);
    PrintWriter err = new PrintWriter(System.err, false, charset);
    System.exit(run(args, out, err));
  }

  /**
   * Parses {@code args} (Go-style {@code -agent-socket}, {@code -query} included) and probes;
   * returns the exit status. A failure is printed once as {@code cri-resmgr-agent-probe: reason}.
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return Cli.execute(
        Cli.commandLine(new ProbeCommand(), List.of(), out, err, ProbeException.class::isInstance),
        args);
  }
}
