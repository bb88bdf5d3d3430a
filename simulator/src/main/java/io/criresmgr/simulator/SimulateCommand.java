package io.criresmgr.simulator;

import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.proxy.ui.OfflinePage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cri-resmgr simulate --pods SCENARIO [--topology SPEC] [--config CFG] [--html FILE]}: runs
 * a scenario through the real daemon and policy on a simulated node and prints the placement after
 * each verify step and at the end; with {@code --html}, writes the node at the end as a
 * self-contained page of the live view ({@link OfflinePage}). Exit status 0 when every expectation
 * holds, 1 when one fails, 2 for a bad scenario file or a page that cannot be written
 * (docs/simulator.md).
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description =
        "Run a scenario (pods created and deleted, expectations on their placement) through the"
            + " real resource manager on a simulated node, and print the placement.")
public final class SimulateCommand implements Callable<Integer> {
  /** Exit status when an expectation fails. */
  public static final int FAILED = 1;

  /** Exit status for a scenario file, topology or configuration that cannot be used. */
  public static final int BAD_SCENARIO = 2;

  @Option(
      names = "--pods",
      required = true,
      paramLabel = "SCENARIO",
      description = "Scenario file (YAML, see docs/scenarios.md).")
  private Path pods = Path.of("");

  @Option(
      names = "--topology",
      paramLabel = "SPEC",
      description =
          "Topology: a built-in name (n4c16, ...), a spec in JSON, or a spec file;"
              + " overrides the scenario's.")
  private String topology = "";

  @Option(
      names = "--config",
      paramLabel = "CFG",
      description = "cri-resmgr configuration file; overrides the scenario's.")
  private Path config = Path.of("");

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description =
          "Write the node at the end as a self-contained page of the live view (docs/ui.md).")
  private Path html = Path.of("");

  @Option(names = "--verbose", description = "Show the daemon's log while the scenario runs.")
  private boolean verbose;

  @Spec private CommandSpec spec = CommandSpec.create();

  private final PolicyRegistry registry;

  /** A command for the built-in policies. */
  public SimulateCommand() {
    this(BuiltInPolicies.registry());
  }

  /** A command for the policies of {@code registry}. */
  public SimulateCommand(PolicyRegistry registry) {
    this.registry = registry;
  }

  /** Runs the scenario; returns the exit status. */
  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      Scenario scenario = scenario();
      Printer printer = new Printer(out, html);
      ScenarioResult result = new ScenarioRunner(registry, !verbose, printer).run(scenario);
      out.flush();
      int status = report(result, out, err);
      if (printer.pageError != null) {
        err.println("simulate: --html " + html + ": " + printer.pageError);
        return status == 0 ? BAD_SCENARIO : status;
      }
      return status;
    } catch (ScenarioException e) {
      err.println("simulate: " + e.getMessage());
      return BAD_SCENARIO;
    }
  }

  private Scenario scenario() {
    Scenario scenario = Scenario.read(pods);
    if (!topology.isBlank()) {
      scenario = scenario.withTopology(topology);
    }
    if (!config.toString().isEmpty()) {
      try {
        scenario = scenario.withConfig(Files.readString(config, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new ScenarioException(config + ": cannot read: " + e, e);
      }
    }
    return scenario;
  }

  private static int report(ScenarioResult result, PrintWriter out, PrintWriter err) {
    if (result.passed()) {
      out.println("PASS: " + result.source() + ": " + result.stepsRun() + " steps");
      return 0;
    }
    err.println("FAIL: " + result.source() + ": " + result.failure().orElseThrow());
    if (!result.logTail().isEmpty()) {
      err.println("last lines of the daemon's log:");
      result.logTail().forEach(line -> err.println("  " + line));
    }
    return FAILED;
  }

  /**
   * Prints the placement after each verify step and at the end, and writes the page at the end when
   * {@code html} is not empty; {@code pageError} says why it could not.
   */
  private static final class Printer implements ScenarioRunner.Listener {
    private final PrintWriter out;
    private final Path html;
    private @Nullable String pageError;

    Printer(PrintWriter out, Path html) {
      this.out = out;
      this.html = html;
    }

    @Override
    public void verified(String label, Observed observed, SystemTopology topology) {
      print("after " + label, observed, topology);
    }

    @Override
    public void finished(Observed observed, SystemTopology topology, LiveDaemon daemon) {
      print("at the end", observed, topology);
      if (!html.toString().isEmpty()) {
        pageError = writePage(daemon.nodeModel());
      }
    }

    private @Nullable String writePage(Optional<String> model) {
      if (model.isEmpty()) {
        return "not written: the daemon was not running at the end";
      }
      try {
        Files.writeString(html, OfflinePage.html(model.get()), StandardCharsets.UTF_8);
        return null;
      } catch (IOException e) {
        return "cannot write: " + e;
      }
    }

    private void print(String title, Observed observed, SystemTopology topology) {
      out.println("== placement " + title);
      out.print(PlacementReport.format(observed, topology));
      out.println();
      out.flush();
    }
  }
}
