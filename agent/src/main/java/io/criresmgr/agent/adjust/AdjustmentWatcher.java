package io.criresmgr.agent.adjust;

import com.google.gson.JsonObject;
import io.criresmgr.agent.kube.Backoff;
import io.criresmgr.agent.kube.KubeSources;
import io.criresmgr.agent.kube.ObjectHandler;
import io.criresmgr.agent.kube.WatchLoop;
import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Watches the {@code Adjustment} objects of the config namespace, keeps a {@link AdjustmentTracker}
 * up to date, and after each change (once listed) offers the node's in-scope set to a consumer (the
 * rate limiter in front of the pusher, which drops unchanged sets).
 */
public final class AdjustmentWatcher implements AutoCloseable {
  private final WatchLoop<JsonObject> loop;

  /** Watches {@code namespace} through {@code client}, feeding {@code tracker} and {@code sink}. */
  public AdjustmentWatcher(
      ApiClient client,
      String namespace,
      AdjustmentTracker tracker,
      Consumer<NodeAdjustments> sink,
      Backoff backoff) {
    loop =
        new WatchLoop<>(
            "adjustments in " + namespace,
            KubeSources.adjustments(client, namespace),
            new Handler(tracker, sink),
            backoff);
  }

  /** Starts the watch. */
  public void start() {
    loop.start();
  }

  /** Stops the watch. */
  @Override
  public void close() {
    loop.close();
  }

  private record Handler(AdjustmentTracker tracker, Consumer<NodeAdjustments> sink)
      implements ObjectHandler<JsonObject> {
    Handler {
      Objects.requireNonNull(tracker, "tracker");
      Objects.requireNonNull(sink, "sink");
    }

    @Override
    public void replaceAll(List<JsonObject> objects) {
      tracker.replaceAll(objects);
      offer();
    }

    @Override
    public void changed(JsonObject object) {
      tracker.changed(object);
      offer();
    }

    @Override
    public void deleted(JsonObject object) {
      tracker.deleted(object);
      offer();
    }

    private void offer() {
      if (tracker.listed()) {
        sink.accept(tracker.current());
      }
    }
  }
}
