package io.criresmgr.proxy.core;

import com.google.protobuf.InvalidProtocolBufferException;
import io.criresmgr.api.runtime.v1.ContainerFilter;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.grpc.MethodDescriptor;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ListContainers: relayed, and an unfiltered listing is used to detect containers that exited or
 * vanished behind the resource manager's back (kubelet lists periodically). The reply is not
 * delayed: the cache is brought up to date in a step of its own. Kubelet gets the runtime's reply
 * as its bytes, neither parsed nor encoded again; the step reads only each container's id and state
 * from them ({@link ContainerListing}).
 */
public final class ListRequests {
  private static final Logger LOG = LoggerFactory.getLogger(ListRequests.class);

  /** ListContainers with the reply as the bytes on the wire. */
  public static final MethodDescriptor<ListContainersRequest, byte[]> METHOD =
      RuntimeServiceGrpc.getListContainersMethod().toBuilder(
              RuntimeServiceGrpc.getListContainersMethod().getRequestMarshaller(),
              RawMarshaller.INSTANCE)
          .build();

  private final RequestFlow flow;

  /** Requests through {@code pipeline}, calling {@code runtime}. */
  public ListRequests(Pipeline pipeline, RuntimeClient runtime) {
    this.flow = new RequestFlow(pipeline, runtime);
  }

  /** Relays the listing; an unfiltered one also updates the cache. */
  public CompletableFuture<byte[]> list(
      ListContainersRequest request, CallScope scope, long stampBefore) {
    CompletableFuture<byte[]> reply = flow.call(scope, METHOD, request);
    if (isUnfiltered(request)) {
      var unused = // failures are logged here
          reply.thenCompose(
              listing ->
                  flow.step(scope, s -> reconcile(s, listing, stampBefore))
                      .exceptionally(
                          e -> {
                            LOG.warn("exit detection failed: {}", e.toString());
                            return null;
                          }));
    }
    return reply;
  }

  /** Whether the request lists every container (no id, state, pod or label filter). */
  static boolean isUnfiltered(ListContainersRequest request) {
    ContainerFilter f = request.getFilter();
    return f.getId().isEmpty()
        && !f.hasState()
        && f.getPodSandboxId().isEmpty()
        && f.getLabelSelectorCount() == 0;
  }

  /**
   * Releases cached running or created containers the runtime lists as exited, and running ones it
   * no longer lists. Containers that changed state since {@code stampBefore} are skipped: the
   * listing may predate them.
   */
  static @org.jspecify.annotations.Nullable Void reconcile(
      Section s, byte[] listing, long stampBefore) {
    Map<String, io.criresmgr.api.runtime.v1.ContainerState> listed;
    try {
      listed = ContainerListing.states(listing);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "the runtime's ListContainers reply: " + e.getMessage(), e);
    }
    for (Container c : s.cache().containers()) {
      if (s.changedAt(c.cacheId()) >= stampBefore || c.id().isEmpty()) {
        continue;
      }
      io.criresmgr.api.runtime.v1.ContainerState state = listed.get(c.id());
      boolean exited = state == io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_EXITED;
      if ((c.state() == ContainerState.RUNNING || c.state() == ContainerState.CREATED) && exited) {
        LOG.info("container {} exited", c.cacheId());
        s.release(c, ContainerState.EXITED);
      } else if (c.state() == ContainerState.RUNNING && state == null) {
        LOG.info("container {} vanished from the runtime", c.cacheId());
        s.release(c, ContainerState.STALE);
      }
    }
    return null;
  }
}
