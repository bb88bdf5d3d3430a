/**
 * The CRI relay: a gRPC server on a Unix socket that forwards every RuntimeService and ImageService
 * call, known or not, to the real runtime as raw bytes.
 *
 * <pre>
 *  kubelet ──► relay socket ──► RelayHandlerRegistry ──► ProxyCall ──► runtime channel ──► runtime
 *                                  (any method name)      (bytes,         (image channel for
 *                                                          flow control)   ImageService calls)
 *                                      │
 *                                      └──► RelayListener (message dump, metrics): observes only
 * </pre>
 *
 * <p>Nothing here parses messages: metadata, deadlines, cancellation, status codes, details and
 * trailers pass through untouched. Listeners receive the raw bytes and must not block.
 *
 * <p>Why: docs/adr/0002-raw-byte-relay.md.
 */
@NullMarked
package io.criresmgr.proxy.relay;

import org.jspecify.annotations.NullMarked;
