/**
 * A small HTTP/1.1 server (Netty) whose every resource is bounded, shared by the daemon's {@code
 * /metrics} endpoint and the webhook's HTTPS server: a deadline for each request and each response,
 * an idle timeout for kept-alive connections, a maximum number of connections, a maximum request
 * body and a budget for all bodies being received at once, and a fixed pool of worker threads with
 * a bounded queue. One slow or large client therefore costs at most one connection for a few
 * seconds and never delays the others.
 *
 * <p>Thread-safety: {@link io.criresmgr.http.BoundedHttpServer} may be closed from any thread;
 * {@link io.criresmgr.http.HttpHandler#handle} runs on the worker threads, several at once.
 */
@NullMarked
package io.criresmgr.http;

import org.jspecify.annotations.NullMarked;
