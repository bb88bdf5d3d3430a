package io.criresmgr.agent.probe;

import io.criresmgr.agent.server.AgentServer;
import io.criresmgr.api.agent.v1.AgentGrpc;
import io.criresmgr.api.agent.v1.HealthCheckReply;
import io.criresmgr.api.agent.v1.HealthCheckRequest;
import io.criresmgr.grpc.unix.EventLoops;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cri-resmgr-agent-probe}: asks the agent's {@code HealthCheck} and reports the answer. */
@Command(
    name = ProbeCommand.NAME,
    usageHelpAutoWidth = true,
    description =
        "Probes cri-resmgr-agent: exits 0 if it is healthy for the query, 1 with the reason"
            + " otherwise (also when the agent cannot be reached).")
final class ProbeCommand implements Callable<Integer> {
  static final String NAME = "cri-resmgr-agent-probe";

  /** The deadline of the call, as cri-resmgr's probe. */
  static final Duration DEADLINE = Duration.ofSeconds(5);

  @Option(
      names = "--agent-socket",
      defaultValue = AgentServer.DEFAULT_SOCKET,
      description = "The agent's socket (default ${DEFAULT-VALUE}).")
  Path agentSocket = Path.of("");

  @Option(
      names = "--query",
      defaultValue = "",
      description =
          "Health query: empty (the agent runs) or config-status (the last configuration pushed"
              + " to cri-resmgr was not rejected).")
  String query = "";

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help and exit.")
  boolean help;

  private ManagedChannel channel(EventLoopGroup group) {
    return NettyChannelBuilder.forAddress(new DomainSocketAddress(agentSocket.toString()))
        .eventLoopGroup(group)
        .channelType(EpollDomainSocketChannel.class)
        .usePlaintext()
        // gRPC asks for TCP keep-alive, which Unix sockets do not have (netty warns).
        .withOption(ChannelOption.SO_KEEPALIVE, null)
        .directExecutor()
        .build();
  }

  /** The gRPC status and, for a transport failure, its cause (e.g. no such file). */
  private static String describe(StatusRuntimeException e) {
    Status status = e.getStatus();
    String text =
        status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription());
    Throwable cause = status.getCause();
    return cause == null || cause.getMessage() == null
        ? text
        : text + " (" + cause.getMessage() + ")";
  }

  @Override
  public Integer call() throws ProbeException {
    String error = healthError();
    if (!error.isEmpty()) {
      throw new ProbeException("unhealthy: " + error);
    }
    return 0;
  }

  private String healthError() throws ProbeException {
    if (!Files.exists(agentSocket)) {
      throw new ProbeException(
          "cannot reach the agent on " + agentSocket + ": no such socket (is the agent running?)");
    }
    EventLoopGroup group = EventLoops.epoll("probe-io", 1);
    ManagedChannel channel = channel(group);
    try {
      HealthCheckReply reply =
          AgentGrpc.newBlockingStub(channel)
              .withDeadlineAfter(DEADLINE.toNanos(), TimeUnit.NANOSECONDS)
              .healthCheck(HealthCheckRequest.newBuilder().setQuery(query).build());
      return reply.getError();
    } catch (StatusRuntimeException e) {
      throw new ProbeException("cannot reach the agent on " + agentSocket + ": " + describe(e));
    } finally {
      channel.shutdownNow();
      var unused = group.shutdownGracefully(0, 0, TimeUnit.SECONDS); // the probe exits next
    }
  }
}
