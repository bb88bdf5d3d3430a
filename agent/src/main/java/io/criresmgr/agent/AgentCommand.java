package io.criresmgr.agent;

import io.criresmgr.agent.config.ConfigMapNames;
import io.criresmgr.agent.server.AgentServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cri-resmgr-agent}: its flags (those of cri-resmgr's agent) and what it runs. */
@Command(
    name = AgentCommand.NAME,
    usageHelpAutoWidth = true,
    description =
        "Node agent: chooses this node's cri-resmgr configuration from ConfigMaps"
            + " (node, then group, then default). Needs NODE_NAME in the environment.")
final class AgentCommand implements Callable<Integer> {
  static final String NAME = "cri-resmgr-agent";

  /** Environment variable naming this node, as the DaemonSet sets it from spec.nodeName. */
  static final String NODE_NAME = "NODE_NAME";

  /** Runs the agent once the options are known; returns the exit status. */
  @FunctionalInterface
  interface Runner {
    int run(AgentOptions options) throws Exception;
  }

  // Injected by picocli; the placeholder keeps the field non-null before that.
  @Spec CommandSpec spec = CommandSpec.create();

  @Option(
      names = "--kubeconfig",
      defaultValue = "",
      description = "kubeconfig file; empty: the in-cluster configuration (default).")
  String kubeconfig = "";

  @Option(
      names = "--config-ns",
      defaultValue = ConfigMapNames.DEFAULT_NAMESPACE,
      description = "Namespace of the ConfigMaps (default ${DEFAULT-VALUE}).")
  String namespace = ConfigMapNames.DEFAULT_NAMESPACE;

  @Option(
      names = "--configmap-name",
      defaultValue = ConfigMapNames.DEFAULT_BASE_NAME,
      description = "Base name of the ConfigMaps (default ${DEFAULT-VALUE}).")
  String baseName = ConfigMapNames.DEFAULT_BASE_NAME;

  @Option(
      names = "--label-name",
      defaultValue = ConfigMapNames.DEFAULT_GROUP_LABEL,
      description = "Node label naming the node's configuration group (default ${DEFAULT-VALUE}).")
  String groupLabel = ConfigMapNames.DEFAULT_GROUP_LABEL;

  @Option(
      names = "--agent-socket",
      defaultValue = AgentServer.DEFAULT_SOCKET,
      description =
          "Socket where the agent serves its API to cri-resmgr (default ${DEFAULT-VALUE}).")
  Path agentSocket = Path.of("");

  @Option(
      names = {"--config-socket", "--cri-resmgr-socket"},
      defaultValue = "/var/run/cri-resmgr/cri-resmgr-config.sock",
      description =
          "cri-resmgr's configuration socket, where the chosen configuration is pushed"
              + " (default ${DEFAULT-VALUE}).")
  Path configSocket = Path.of("");

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help and exit.")
  boolean help;

  private final Map<String, String> environment;
  private final Runner runner;

  AgentCommand(Map<String, String> environment, Runner runner) {
    this.environment = Map.copyOf(environment);
    this.runner = runner;
  }

  @Override
  public Integer call() throws Exception {
    return runner.run(options());
  }

  AgentOptions options() {
    String node = environment.getOrDefault(NODE_NAME, "");
    if (node.isBlank()) {
      throw new ParameterException(
          spec.commandLine(), NODE_NAME + " is not set in the environment");
    }
    try {
      return new AgentOptions(
          new ConfigMapNames(namespace, baseName, groupLabel, node),
          Optional.of(kubeconfig).filter(k -> !k.isEmpty()).map(Path::of),
          agentSocket,
          configSocket);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }
}
