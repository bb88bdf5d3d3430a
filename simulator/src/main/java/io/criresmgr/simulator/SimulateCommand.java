package io.criresmgr.simulator;

import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cri-resmgr simulate --pods SCENARIO [--topology SPEC] [--config CFG]}: runs a scenario
 * through the real daemon and policy on a simulated node and prints the placement after each verify
 * step and at the end. Exit status 0 when every expectation holds, 1 when one fails, 2 for a bad
 * scenario file (docs/simulator.md).
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
      ScenarioResult result =
          new ScenarioRunner(registry, !verbose, new Printer(out)).run(scenario);
      out.flush();
      return report(result, out, err);
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

  /** Prints the placement after each verify step and at the end. */
  private record Printer(PrintWriter out) implements ScenarioRunner.Listener {
    @Override
    public void verified(String label, Observed observed, SystemTopology topology) {
      print("after " + label, observed, topology);
    }

    @Override
    public void finished(Observed observed, SystemTopology topology) {
      print("at the end", observed, topology);
    }

    private void print(String title, Observed observed, SystemTopology topology) {
      out.println("== placement " + title);
      out.print(PlacementReport.format(observed, topology));
      out.println();
      out.flush();
    }
  }
}
