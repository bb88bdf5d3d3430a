package io.criresmgr.proxy.daemon;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.proxy.signals.Signals;
import io.grpc.LoadBalancerRegistry;
import io.grpc.NameResolverRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;
import org.slf4j.LoggerFactory;

/**
 * Work the daemon's start does anyway, begun on a second thread while the main thread parses the
 * command line and sets up logging (docs/benchmarks.md, "Start-up"): Jackson's mappers, whose first
 * one loads the locale data of date formats (the configuration is parsed next), the logging set-up
 * (for command lines picocli parses first), the proxy class of the signal handlers, gRPC's
 * registries, whose service lookups open every jar on the class path, the JDK's Unix-domain
 * sockets, whose first use seeds a random generator, the CRI's protobuf descriptors and the metrics
 * registry's classes. Only pure-Java initialization that any command may leave half done at exit:
 * nothing is written, nothing is extracted (netty's native library is left to {@link
 * RuntimeConnection}, which extracts it to a temporary file). A failure here is ignored; the main
 * thread meets it again and reports it.
 */
public final class StartupWarmup {
  private StartupWarmup() {}

  /** Starts the warm-up on a daemon thread of its own. */
  public static void begin() {
    Thread t = new Thread(StartupWarmup::run, "startup-warmup");
    t.setDaemon(true);
    t.start();
  }

  @SuppressWarnings("EmptyCatch") // the main thread reports what fails here
  static void run() {
    try {
      // First: on a plain command line (docs/adr/0011-daemon-flags-without-picocli.md) the main
      // thread sets up logging at once and parses the configuration next.
      YAMLMapper.builder().build();
    } catch (RuntimeException | LinkageError e) {
      // the configuration loader meets it again
    }
    try {
      // Other command lines are parsed by picocli first, a while before the first logger.
      LoggerFactory.getILoggerFactory();
    } catch (RuntimeException | LinkageError e) {
      // the first logger meets it again
    }
    try {
      Signals.prepare(); // the debug toggle's and the daemon's signal handlers
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // the first handler meets it again
    }
    try {
      NameResolverRegistry.getDefaultRegistry();
      LoadBalancerRegistry.getDefaultRegistry();
    } catch (RuntimeException | LinkageError e) {
      // the runtime channel meets it again
    }
    try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      probe.isOpen();
    } catch (IOException | RuntimeException e) {
      // the runtime socket check meets it again
    }
    try {
      // the CRI's protobuf descriptors, built from the file descriptor (the message dump's
      // catalogue and the intercepted services use them once the runtime answered)
      RuntimeServiceGrpc.getServiceDescriptor();
      ImageServiceGrpc.getServiceDescriptor();
    } catch (RuntimeException | LinkageError e) {
      // the message dump meets it again
    }
    try {
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT).close(); // the metrics' classes
    } catch (RuntimeException | LinkageError e) {
      // instrumentation meets it again
    }
  }
}
