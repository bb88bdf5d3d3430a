/**
 * The CRI front end: a gRPC server on a Unix socket that forwards every RuntimeService and
 * ImageService call, known or not, to the real runtime as raw bytes, except the intercepted
 * methods, which {@link io.criresmgr.proxy.relay.InterceptedService} hands to the daemon's core
 * ({@code io.criresmgr.proxy.core}).
 *
 * <pre>
 *  kubelet ──► relay socket ──► RelayHandlerRegistry ──► ProxyCall ──► runtime channel ──► runtime
 *                                  (any method name)      (bytes,         (image channel for
 *                                                          flow control)   ImageService calls)
 *                                      │
 *                                      └──► RelayListener (message dump, metrics): observes only
 * </pre>
 *
 * <p>Nothing on the raw path parses messages: metadata, deadlines, cancellation, status codes,
 * details and trailers pass through untouched. Listeners receive the raw bytes and must not block.
 *
 * <p>Why: docs/adr/0002-raw-byte-relay.md; the split from the core:
 * docs/adr/0012-core-and-front-ends.md.
 */
@NullMarked
package io.criresmgr.proxy.relay;

import org.jspecify.annotations.NullMarked;
