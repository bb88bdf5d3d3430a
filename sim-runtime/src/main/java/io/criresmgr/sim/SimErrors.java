package io.criresmgr.sim;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/** The gRPC errors the simulated runtime returns; every message names the id involved. */
final class SimErrors {
  private SimErrors() {}

  static StatusRuntimeException notFound(String kind, String id) {
    return Status.NOT_FOUND
        .withDescription(
            "an error occurred when try to find " + kind + " \"" + id + "\": not found")
        .asRuntimeException();
  }

  static StatusRuntimeException invalidArgument(String message) {
    return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException();
  }

  static StatusRuntimeException failedPrecondition(String message) {
    return Status.FAILED_PRECONDITION.withDescription(message).asRuntimeException();
  }

  static StatusRuntimeException alreadyExists(String message) {
    return Status.ALREADY_EXISTS.withDescription(message).asRuntimeException();
  }
}
