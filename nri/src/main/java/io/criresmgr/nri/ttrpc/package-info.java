/**
 * containerd's ttrpc protocol and NRI's connection multiplexing, written here (docs/nri.md).
 *
 * <p>{@link io.criresmgr.nri.ttrpc.Multiplexer} splits one Unix socket into numbered logical
 * connections; {@link io.criresmgr.nri.ttrpc.TtrpcServer} and {@link
 * io.criresmgr.nri.ttrpc.TtrpcClient} speak ttrpc's framing ({@link
 * io.criresmgr.nri.ttrpc.TtrpcCodec}) over any byte stream, one of them or a plain socket. Each
 * owns one reader thread; writes are serialized per stream. All classes are thread-safe.
 */
@NullMarked
package io.criresmgr.nri.ttrpc;

import org.jspecify.annotations.NullMarked;
