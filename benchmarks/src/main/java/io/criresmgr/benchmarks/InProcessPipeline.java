package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.CacheSnapshot;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.Shutdown;
import io.criresmgr.policy.Policy;
import io.criresmgr.proxy.core.ActivePolicy;
import io.criresmgr.proxy.core.ResourceManager;
import io.criresmgr.proxy.relay.InterceptedService;
import io.criresmgr.proxy.relay.RelayListener;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The production {@link ResourceManager} with one policy and no host controllers (the CRI
 * controller running, as in the daemon), its intercepted service served in-process and a runtime
 * that answers at once ({@link InstantRuntime}): the pipeline step without sockets, for the
 * pipeline and policy benchmarks.
 */
final class InProcessPipeline implements AutoCloseable {
  private final ResourceManager manager;
  private final Server server;
  private final ManagedChannel channel;
  private final RuntimeServiceBlockingStub stub;

  /**
   * Starts the pipeline with {@code policy} (named {@code name}), its cache file in {@code dir}.
   */
  InProcessPipeline(String name, Policy policy, Path dir) throws IOException {
    manager =
        new ResourceManager(
            new NodeCache(),
            new ActivePolicy(name, policy),
            List.of(),
            new InstantRuntime(),
            new CacheFile(dir),
            EventLoops::madeByNetty);
    // As the daemon starts them (ResourceManagement, no Controllers section: every controller in
    // its default mode): here the CRI controller alone, so that an assignment reaches the
    // CreateContainer request and every re-assigned container gets its UpdateContainerResources.
    manager
        .pipeline()
        .run(
            s -> {
              s.configureControllers(
                  Map.of(), new ControllerContext(dir, dir, Map.of()).withNode(s));
              return null;
            })
        .join();
    String server = InProcessServerBuilder.generateName();
    this.server =
        InProcessServerBuilder.forName(server)
            .directExecutor()
            .addService(InterceptedService.definition(manager.requests(), RelayListener.NONE))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(server).directExecutor().build();
    stub = RuntimeServiceGrpc.newBlockingStub(channel);
  }

  /** A blocking RuntimeService client of the pipeline. */
  RuntimeServiceBlockingStub stub() {
    return stub;
  }

  /** The pipeline. */
  ResourceManager manager() {
    return manager;
  }

  /** A snapshot of the cache, taken in the pipeline. */
  CacheSnapshot snapshot() {
    return manager.pipeline().run(s -> s.cache().snapshot()).join();
  }

  /** Stops the service and the pipeline. */
  @Override
  public void close() {
    try {
      Shutdown.now(Duration.ofSeconds(5), Shutdown.of(channel), Shutdown.of(server));
    } finally {
      manager.close();
    }
  }
}
