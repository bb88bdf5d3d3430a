package io.criresmgr.nri;

import io.criresmgr.nri.api.ConfigureRequest;
import io.criresmgr.nri.api.ConfigureResponse;
import io.criresmgr.nri.api.Container;
import io.criresmgr.nri.api.CreateContainerRequest;
import io.criresmgr.nri.api.CreateContainerResponse;
import io.criresmgr.nri.api.Empty;
import io.criresmgr.nri.api.Event;
import io.criresmgr.nri.api.PodSandbox;
import io.criresmgr.nri.api.RegisterPluginRequest;
import io.criresmgr.nri.api.StateChangeEvent;
import io.criresmgr.nri.api.SynchronizeRequest;
import io.criresmgr.nri.api.SynchronizeResponse;
import io.criresmgr.nri.api.UpdateContainersRequest;
import io.criresmgr.nri.api.UpdateContainersResponse;
import io.criresmgr.nri.ttrpc.Multiplexer;
import io.criresmgr.nri.ttrpc.MuxConnection;
import io.criresmgr.nri.ttrpc.TtrpcClient;
import io.criresmgr.nri.ttrpc.TtrpcServer;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A fake NRI runtime for tests: listens on a Unix socket, accepts one plugin connection with NRI's
 * multiplexing, serves the Runtime service (recording registrations and update requests) and calls
 * the plugin's Plugin service the way containerd does.
 */
public final class FakeNriRuntime implements AutoCloseable {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final ServerSocketChannel listener;
  private final BlockingQueue<RegisterPluginRequest> registrations = new LinkedBlockingQueue<>();
  private final BlockingQueue<UpdateContainersRequest> updates = new LinkedBlockingQueue<>();
  private Multiplexer mux;
  private TtrpcClient plugin;

  private FakeNriRuntime(ServerSocketChannel listener) {
    this.listener = listener;
  }

  /** Listens on {@code socket}. */
  public static FakeNriRuntime listen(Path socket) throws IOException {
    ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    ch.bind(UnixDomainSocketAddress.of(socket));
    return new FakeNriRuntime(ch);
  }

  /** Accepts the next plugin connection (blocking). */
  public void accept() throws IOException {
    SocketChannel conn = listener.accept();
    mux = new Multiplexer(conn, "fake-runtime");
    MuxConnection runtimeConn = mux.open(Multiplexer.RUNTIME_SERVICE_CONN);
    MuxConnection pluginConn = mux.open(Multiplexer.PLUGIN_SERVICE_CONN);
    TtrpcServer server =
        new TtrpcServer(
            runtimeConn.input(), runtimeConn.output(), runtimeMethods(), "fake-runtime");
    plugin = new TtrpcClient(pluginConn.input(), pluginConn.output(), "fake-runtime");
    mux.start();
    server.start();
    plugin.start();
  }

  /** The next RegisterPlugin request, waiting up to 5 s. */
  public RegisterPluginRequest registration() throws InterruptedException {
    return poll(registrations, "RegisterPlugin");
  }

  /** The next UpdateContainers request, waiting up to 5 s. */
  public UpdateContainersRequest updateRequest() throws InterruptedException {
    return poll(updates, "UpdateContainers");
  }

  /** Calls Configure. */
  public ConfigureResponse configure(String config) {
    ConfigureRequest r =
        ConfigureRequest.newBuilder()
            .setConfig(config)
            .setRuntimeName("fake-runtime")
            .setRuntimeVersion("1.7.24")
            .build();
    return call("Configure", r, ConfigureResponse.parser());
  }

  /** Calls Synchronize. */
  public SynchronizeResponse synchronize(List<PodSandbox> pods, List<Container> containers) {
    SynchronizeRequest r =
        SynchronizeRequest.newBuilder().addAllPods(pods).addAllContainers(containers).build();
    return call("Synchronize", r, SynchronizeResponse.parser());
  }

  /** Calls CreateContainer. */
  public CreateContainerResponse createContainer(PodSandbox pod, Container container) {
    CreateContainerRequest r =
        CreateContainerRequest.newBuilder().setPod(pod).setContainer(container).build();
    return call("CreateContainer", r, CreateContainerResponse.parser());
  }

  /** Calls StateChange. */
  public void stateChange(Event event, PodSandbox pod, Container container) {
    StateChangeEvent r =
        StateChangeEvent.newBuilder().setEvent(event).setPod(pod).setContainer(container).build();
    call("StateChange", r, Empty.parser());
  }

  /** Calls any Plugin method with raw bytes. */
  public <T> T call(
      String method, com.google.protobuf.MessageLite r, com.google.protobuf.Parser<T> p) {
    return plugin.call(NriPlugin.PLUGIN_SERVICE, method, r, p, TIMEOUT);
  }

  /** Drops the plugin's connection, as a runtime that exits. */
  public void disconnect() {
    mux.close();
  }

  @Override
  public void close() throws IOException {
    if (mux != null) {
      mux.close();
    }
    listener.close();
  }

  private Map<String, TtrpcServer.Method> runtimeMethods() {
    return Map.of(
        NriPlugin.RUNTIME_SERVICE + "/RegisterPlugin",
        p -> {
          registrations.add(RegisterPluginRequest.parseFrom(p));
          return Empty.getDefaultInstance().toByteArray();
        },
        NriPlugin.RUNTIME_SERVICE + "/UpdateContainers",
        p -> {
          updates.add(UpdateContainersRequest.parseFrom(p));
          return UpdateContainersResponse.getDefaultInstance().toByteArray();
        });
  }

  private static <T> T poll(BlockingQueue<T> queue, String what) throws InterruptedException {
    T next = queue.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    if (next == null) {
      throw new AssertionError("no " + what + " request within " + TIMEOUT);
    }
    return next;
  }
}
