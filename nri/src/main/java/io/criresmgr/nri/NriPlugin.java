package io.criresmgr.nri;

import io.criresmgr.nri.api.ConfigureRequest;
import io.criresmgr.nri.api.ConfigureResponse;
import io.criresmgr.nri.api.ContainerEviction;
import io.criresmgr.nri.api.ContainerUpdate;
import io.criresmgr.nri.api.CreateContainerRequest;
import io.criresmgr.nri.api.Empty;
import io.criresmgr.nri.api.NriApi;
import io.criresmgr.nri.api.RegisterPluginRequest;
import io.criresmgr.nri.api.StopContainerRequest;
import io.criresmgr.nri.api.StopContainerResponse;
import io.criresmgr.nri.api.SynchronizeRequest;
import io.criresmgr.nri.api.SynchronizeResponse;
import io.criresmgr.nri.api.UpdateContainerRequest;
import io.criresmgr.nri.api.UpdateContainerResponse;
import io.criresmgr.nri.api.UpdateContainersRequest;
import io.criresmgr.nri.api.UpdateContainersResponse;
import io.criresmgr.nri.ttrpc.Multiplexer;
import io.criresmgr.nri.ttrpc.MuxConnection;
import io.criresmgr.nri.ttrpc.TtrpcClient;
import io.criresmgr.nri.ttrpc.TtrpcException;
import io.criresmgr.nri.ttrpc.TtrpcServer;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An NRI plugin's connection to the runtime, the Java counterpart of containerd/nri's {@code
 * pkg/stub}: connect to the NRI socket, multiplex it, serve the {@code Plugin} service on mux
 * connection 1, call the {@code Runtime} service on connection 2, register by name and index.
 *
 * <p>The runtime then calls Configure (answered with the handler's {@linkplain
 * NriEvents#subscribedBy event mask}), Synchronize, and the subscribed events. {@link #closed()}
 * completes when the runtime closes the connection or it fails; reconnecting is the caller's choice
 * (a new {@code connect}).
 */
public final class NriPlugin implements AutoCloseable {
  /** The Plugin service's full name, as ttrpc routes it. */
  public static final String PLUGIN_SERVICE = service("Plugin");

  /** The Runtime service's full name. */
  public static final String RUNTIME_SERVICE = service("Runtime");

  private static final Logger LOG = LoggerFactory.getLogger(NriPlugin.class);

  private final NriPluginOptions options;
  private final Multiplexer mux;
  private final TtrpcClient runtime;
  private final TtrpcServer server;

  private NriPlugin(NriPluginOptions options, NriHandler handler, SocketChannel socket) {
    this.options = options;
    this.mux = new Multiplexer(socket, "nri-" + options.name());
    MuxConnection pluginConn = mux.open(Multiplexer.PLUGIN_SERVICE_CONN);
    MuxConnection runtimeConn = mux.open(Multiplexer.RUNTIME_SERVICE_CONN);
    this.server =
        new TtrpcServer(
            pluginConn.input(),
            pluginConn.output(),
            methods(handler, NriEvents.mask(NriEvents.subscribedBy(handler))),
            "nri-" + options.name());
    this.runtime =
        new TtrpcClient(runtimeConn.input(), runtimeConn.output(), "nri-" + options.name());
  }

  /**
   * Connects to {@code options.socket()} and registers; the runtime's Configure and Synchronize
   * follow on the plugin's thread.
   *
   * @throws NriException if the socket cannot be reached or the runtime refuses the registration
   */
  public static NriPlugin connect(NriPluginOptions options, NriHandler handler) {
    Objects.requireNonNull(handler, "handler");
    SocketChannel socket = open(options);
    NriPlugin plugin = new NriPlugin(options, handler, socket);
    plugin.start();
    try {
      plugin.register();
    } catch (RuntimeException e) {
      plugin.close();
      throw e;
    }
    return plugin;
  }

  /** Completes normally when the runtime closes the connection, exceptionally when it fails. */
  public CompletableFuture<Void> closed() {
    return mux.closed();
  }

  /** Asks the runtime to update (and evict) containers outside any request; returns failures. */
  public List<ContainerUpdate> updateContainers(
      List<ContainerUpdate> updates, List<ContainerEviction> evictions) {
    UpdateContainersRequest request =
        UpdateContainersRequest.newBuilder().addAllUpdate(updates).addAllEvict(evictions).build();
    UpdateContainersResponse response =
        runtime.call(
            RUNTIME_SERVICE,
            "UpdateContainers",
            request,
            UpdateContainersResponse.parser(),
            options.requestTimeout());
    return response.getFailedList();
  }

  /** Closes the connection; the runtime sees the plugin go away. */
  @Override
  public void close() {
    runtime.close();
    server.close();
    mux.close();
  }

  private static SocketChannel open(NriPluginOptions options) {
    try {
      return SocketChannel.open(UnixDomainSocketAddress.of(options.socket()));
    } catch (IOException e) {
      throw new NriException(
          "cannot connect to the NRI socket "
              + options.socket()
              + " ("
              + e.getMessage()
              + "); is the runtime running with NRI enabled?",
          e);
    }
  }

  private void start() {
    mux.start();
    server.start();
    runtime.start();
    var unused = mux.closed().whenComplete((ok, failure) -> logClosed(failure)); // logs only
  }

  private void register() {
    RegisterPluginRequest request =
        RegisterPluginRequest.newBuilder()
            .setPluginName(options.name())
            .setPluginIdx(options.index())
            .build();
    try {
      runtime.call(
          RUNTIME_SERVICE,
          "RegisterPlugin",
          request,
          Empty.parser(),
          options.registrationTimeout());
    } catch (TtrpcException e) {
      throw new NriException(
          "NRI plugin " + options.index() + "-" + options.name() + " not registered: " + e, e);
    }
    LOG.info("NRI plugin {}-{} registered", options.index(), options.name());
  }

  private void logClosed(@org.jspecify.annotations.Nullable Throwable failure) {
    if (failure == null) {
      LOG.info("NRI plugin {}: the runtime closed the connection", options.name());
    } else {
      LOG.warn("NRI plugin {}: connection failed: {}", options.name(), failure.getMessage());
    }
  }

  private static Map<String, TtrpcServer.Method> methods(NriHandler h, int events) {
    Map<String, TtrpcServer.Method> m = new HashMap<>();
    m.put(
        PLUGIN_SERVICE + "/Configure",
        p -> configure(h, events, ConfigureRequest.parseFrom(p)).toByteArray());
    m.put(PLUGIN_SERVICE + "/Synchronize", p -> synchronize(h, SynchronizeRequest.parseFrom(p)));
    m.put(PLUGIN_SERVICE + "/Shutdown", p -> shutdown(h));
    m.put(
        PLUGIN_SERVICE + "/CreateContainer",
        p -> createContainer(h, CreateContainerRequest.parseFrom(p)));
    m.put(
        PLUGIN_SERVICE + "/UpdateContainer",
        p -> updateContainer(h, UpdateContainerRequest.parseFrom(p)));
    m.put(
        PLUGIN_SERVICE + "/StopContainer",
        p -> stopContainer(h, StopContainerRequest.parseFrom(p)));
    m.put(PLUGIN_SERVICE + "/StateChange", p -> StateChanges.dispatch(h, p));
    return m;
  }

  private static ConfigureResponse configure(NriHandler h, int events, ConfigureRequest r) {
    h.configure(r.getConfig(), r.getRuntimeName(), r.getRuntimeVersion());
    return ConfigureResponse.newBuilder().setEvents(events).build();
  }

  private static byte[] synchronize(NriHandler h, SynchronizeRequest r) {
    return SynchronizeResponse.newBuilder()
        .addAllUpdate(h.synchronize(r.getPodsList(), r.getContainersList()))
        .build()
        .toByteArray();
  }

  private static byte[] shutdown(NriHandler h) {
    h.shutdown();
    return Empty.getDefaultInstance().toByteArray();
  }

  private static byte[] createContainer(NriHandler h, CreateContainerRequest r) {
    return h.createContainer(r.getPod(), r.getContainer()).toByteArray();
  }

  private static byte[] updateContainer(NriHandler h, UpdateContainerRequest r) {
    return UpdateContainerResponse.newBuilder()
        .addAllUpdate(h.updateContainer(r.getPod(), r.getContainer(), r.getLinuxResources()))
        .build()
        .toByteArray();
  }

  private static byte[] stopContainer(NriHandler h, StopContainerRequest r) {
    return StopContainerResponse.newBuilder()
        .addAllUpdate(h.stopContainer(r.getPod(), r.getContainer()))
        .build()
        .toByteArray();
  }

  private static String service(String name) {
    return NriApi.getDescriptor().findServiceByName(name).getFullName();
  }
}
