package io.criresmgr.proxy.nri;

import io.criresmgr.nri.NriPluginOptions;
import io.criresmgr.proxy.core.ResourceManager;
import io.grpc.Channel;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The daemon's NRI mode (docs/nri.md): the runtime the pipeline is built on ({@link #channel}),
 * then the front end connected to the runtime's NRI socket ({@link #connect}). Closing it stops the
 * front end and that runtime; close the connection first.
 */
public final class NriMode implements AutoCloseable {
  private final NriBackedRuntime runtime = NriBackedRuntime.start();
  private @Nullable NriFrontEnd frontEnd;
  private volatile @Nullable NriConnection connection;

  private NriMode() {}

  /** A mode whose pipeline is not built yet. */
  public static NriMode prepare() {
    return new NriMode();
  }

  /** The runtime channel to build the pipeline on. */
  public Channel channel() {
    return runtime.channel();
  }

  /**
   * Serves {@code manager}'s pipeline, built on {@link #channel}, to the runtime's NRI as plugin
   * {@code options}; connects and reconnects in the background. Close the result to disconnect.
   */
  public AutoCloseable connect(ResourceManager manager, NriPluginOptions options) {
    frontEnd = new NriFrontEnd(manager, runtime);
    NriConnection started = NriConnection.start(options, frontEnd, System::nanoTime);
    connection = started;
    return started;
  }

  /**
   * For {@code /healthz} (part {@code nri}): while the plugin is not registered with the runtime,
   * for how long and why (docs/nri.md, "A hung daemon"); before {@link #connect}, that it has not
   * begun connecting.
   */
  public Optional<String> problem() {
    NriConnection c = connection;
    return c == null ? Optional.of("not connecting yet") : c.problem();
  }

  @Override
  public void close() {
    NriFrontEnd started = frontEnd;
    if (started != null) {
      started.close();
    }
    runtime.close();
  }
}
