package io.criresmgr.proxy.core;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Unwrapping of the wrappers {@link java.util.concurrent.CompletableFuture} puts on failures. */
final class Errors {
  private Errors() {}

  /** The original failure inside completion and execution wrappers. */
  static Throwable unwrap(Throwable t) {
    Throwable e = t;
    while ((e instanceof CompletionException || e instanceof ExecutionException)
        && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }

  /** {@code t} as an unchecked exception, to rethrow from a completion stage. */
  static RuntimeException rethrow(Throwable t) {
    Throwable e = unwrap(t);
    return e instanceof RuntimeException r ? r : new CompletionException(e);
  }
}
