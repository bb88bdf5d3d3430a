package io.criresmgr.sim;

import io.grpc.ServerBuilder;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.StatusRuntimeException;
import java.util.List;

/**
 * An in-memory CRI runtime: both CRI services over one shared state, plus {@link SimHooks} for
 * tests. Serve it with {@link SimRuntimeServer} (Unix socket) or add {@link #services()} to any
 * gRPC server builder (e.g. in-process). Thread-safe. Closing it ends the container event streams.
 *
 * <p>Semantics (which codes, which exit codes, what is idempotent) are described in
 * docs/simulated-runtime.md.
 */
public final class SimRuntime implements AutoCloseable {
  private final SimOptions options;
  private final ContainerEventBus events = new ContainerEventBus();
  private final SimHooks hooks = new SimHooks();
  private final SimState state;
  private final SimulatedRuntimeService runtimeService;
  private final SimulatedImageService imageService;

  /** A runtime with {@link SimOptions#defaults()}. */
  public SimRuntime() {
    this(SimOptions.defaults());
  }

  /**
   * A runtime with the given options.
   *
   * @throws IllegalArgumentException if a pre-pulled image is an unknown image id
   */
  public SimRuntime(SimOptions options) {
    this.options = options;
    ImageStore images = new ImageStore();
    options.images().forEach(ref -> prePull(images, ref));
    state = new SimState(options.clock(), options.ids(), images, events);
    Listings listings = new Listings(state, images);
    runtimeService =
        new SimulatedRuntimeService(
            options,
            new PodRpcs(state, listings),
            new ContainerRpcs(state, listings, options.hostRoot()),
            listings,
            events);
    imageService = new SimulatedImageService(images, listings, options.clock());
  }

  /** The options this runtime was created with. */
  public SimOptions options() {
    return options;
  }

  /** The bare RuntimeService (without hooks). */
  public SimulatedRuntimeService runtimeService() {
    return runtimeService;
  }

  /** The bare ImageService (without hooks). */
  public SimulatedImageService imageService() {
    return imageService;
  }

  /** The test hooks applied by {@link #services()}. */
  public SimHooks hooks() {
    return hooks;
  }

  /** Both services, with the hooks applied: what a server should serve. */
  public List<ServerServiceDefinition> services() {
    HooksInterceptor interceptor = new HooksInterceptor(hooks);
    return List.of(
        ServerInterceptors.intercept(runtimeService, interceptor),
        ServerInterceptors.intercept(imageService, interceptor));
  }

  /** Adds {@link #services()} to a server builder and returns the builder. */
  public <T extends ServerBuilder<T>> T addTo(T builder) {
    services().forEach(builder::addService);
    return builder;
  }

  /**
   * Makes a running container exit on its own with {@code exitCode} (a crash, or a command that
   * finished), as kubelet would later find it: state {@code CONTAINER_EXITED}, {@code finished_at}
   * set, reason {@code Completed} for 0 else {@code Error}, and a {@code CONTAINER_STOPPED_EVENT}.
   *
   * @throws StatusRuntimeException {@code NOT_FOUND} for an unknown id, {@code FAILED_PRECONDITION}
   *     if the container is not running
   */
  public void exitContainer(String containerId, int exitCode) {
    state.exitContainer(containerId, exitCode);
  }

  /** The number of open {@code GetContainerEvents} streams. */
  public int eventSubscribers() {
    return events.subscriberCount();
  }

  /** Completes every open event stream and stops the helper threads. */
  @Override
  public void close() {
    events.close();
    hooks.close();
  }

  private static void prePull(ImageStore images, String ref) {
    try {
      images.pull(ref);
    } catch (StatusRuntimeException e) {
      throw new IllegalArgumentException("images: cannot pre-pull \"" + ref + "\"", e);
    }
  }
}
