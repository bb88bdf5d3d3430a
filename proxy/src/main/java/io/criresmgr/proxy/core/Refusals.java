package io.criresmgr.proxy.core;

import io.criresmgr.controllers.ControllerException;
import io.criresmgr.policy.PolicyException;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a failed request answers its client with, the same for every front end: the runtime's own
 * status as it is, the resource manager's refusals as statuses naming the reason (docs/nri.md).
 */
public final class Refusals {
  private static final Logger LOG = LoggerFactory.getLogger(Refusals.class);

  private Refusals() {}

  /**
   * The error a failure of method {@code name} answers with: the runtime's own status error itself
   * (its trailers untouched), else the {@link #status} of the failure as an exception.
   */
  public static Throwable error(String name, Throwable failure) {
    Throwable error = Errors.unwrap(failure);
    if (error instanceof StatusRuntimeException || error instanceof StatusException) {
      return error;
    }
    return status(name, error).asRuntimeException();
  }

  /**
   * The status a failure of method {@code name} answers with: the runtime's own as it is, the
   * resource manager's refusals naming the reason (logged), anything else an internal error (logged
   * with its stack).
   */
  public static Status status(String name, Throwable failure) {
    Throwable error = Errors.unwrap(failure);
    if (error instanceof StatusRuntimeException || error instanceof StatusException) {
      return Status.fromThrowable(error);
    }
    Status status;
    if (error instanceof RequestException refused) {
      status = refused.status();
    } else if (error instanceof PolicyException) {
      status = Status.RESOURCE_EXHAUSTED.withDescription(error.getMessage());
    } else if (error instanceof ControllerException) {
      status = Status.FAILED_PRECONDITION.withDescription(error.getMessage());
    } else {
      LOG.error("{} failed in the resource manager", name, error);
      return Status.INTERNAL.withDescription("cri-resmgr: " + name + " failed: " + error);
    }
    LOG.warn("{} refused: {}", name, status.getDescription());
    return status;
  }
}
