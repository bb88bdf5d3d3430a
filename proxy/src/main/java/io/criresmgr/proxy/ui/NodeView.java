package io.criresmgr.proxy.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.policy.sysfs.SysfsReader;
import io.criresmgr.proxy.core.Pipeline;
import io.criresmgr.proxy.metrics.Route;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pages of the live view (docs/ui.md): {@code /ui} and its script and style, {@code
 * /ui/version} ({@link Pipeline#version()}, read without a pipeline step) and {@code /ui/node.json}
 * ({@link NodeModel}). The model is built on the HTTP worker from a {@link NodeSnapshot}, and only
 * when the version moved since the last one: the pipeline's share is one step that copies
 * references, per change that a browser asks to see.
 */
public final class NodeView {
  private static final Logger LOG = LoggerFactory.getLogger(NodeView.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Pipeline pipeline;
  private final Path hostRoot;
  private @Nullable ObjectNode topology;
  private @Nullable Built last;

  /** The view of {@code pipeline}'s node, whose sysfs is below {@code hostRoot} (empty: /). */
  public NodeView(Pipeline pipeline, Path hostRoot) {
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    this.hostRoot = hostRoot.toString().isEmpty() ? Path.of("/") : hostRoot;
  }

  private record Built(long version, String json) {}

  /** The pages by path; who may read them is the caller's rule (that of {@code /introspect}). */
  public Map<String, Route> pages() {
    Route page = StaticPage.route("index.html", "text/html; charset=utf-8");
    return Map.of(
        "/ui",
        page,
        "/ui/",
        page,
        "/ui/view.js",
        StaticPage.route("view.js", "text/javascript; charset=utf-8"),
        "/ui/view.css",
        StaticPage.route("view.css", "text/css; charset=utf-8"),
        "/ui/version",
        new Route("text/plain; charset=utf-8", () -> pipeline.version() + "\n", true),
        "/ui/node.json",
        new Route("application/json", this::json, true));
  }

  /** The model of the pipeline's current state; the last one while the version has not moved. */
  public synchronized String json() throws InterruptedException {
    Built built = last;
    if (built != null && built.version() == pipeline.version()) {
      return built.json();
    }
    NodeSnapshot snapshot = snapshot();
    try {
      built =
          new Built(
              snapshot.version(), JSON.writeValueAsString(NodeModel.of(snapshot, topology())));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot write the node model: " + e.getMessage(), e);
    }
    last = built;
    return built.json();
  }

  private NodeSnapshot snapshot() throws InterruptedException {
    try {
      return pipeline.run(s -> NodeSnapshot.take(pipeline, s)).get(5, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot take a snapshot of the node: " + e, e);
    }
  }

  /** The topology, read once; a host whose sysfs cannot be read gives {@code {"error": ...}}. */
  private ObjectNode topology() {
    if (topology == null) {
      try {
        topology = TopologyJson.write(SysfsReader.read(hostRoot));
      } catch (RuntimeException e) {
        LOG.warn("the live view shows no topology: {}", e.getMessage());
        topology = TopologyJson.unknown(String.valueOf(e.getMessage()));
      }
    }
    return topology;
  }
}
