package io.criresmgr.http;

import java.util.Set;

/** What a {@link BoundedHttpServer} serves. */
public interface HttpHandler {
  /**
   * The methods served, in upper case; a request with another one gets 405 before its body is read.
   */
  Set<String> methods();

  /**
   * Answers {@code request}; runs on a worker thread. An exception gives 500 with its message, an
   * {@link Error} 500 with its class name (logged with its stack). A response to {@code HEAD} is
   * sent without its body.
   */
  Response handle(Request request) throws Exception;
}
