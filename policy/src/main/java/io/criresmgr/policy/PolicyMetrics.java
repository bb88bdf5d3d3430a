package io.criresmgr.policy;

import io.criresmgr.cache.NodeState;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Optional interface of a {@link Policy} that exports gauges on {@code /metrics}. */
public interface PolicyMetrics {
  /** The current values; called on the pipeline thread. */
  List<Gauge> collect(NodeState node);

  /**
   * One gauge sample.
   *
   * @param name metric name (Prometheus syntax)
   * @param help one-line description
   * @param labels label values
   * @param value the value
   */
  record Gauge(String name, String help, Map<String, String> labels, double value) {
    /** Checks for nulls and copies the map. */
    public Gauge {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(help, "help");
      labels = Map.copyOf(labels);
    }
  }
}
