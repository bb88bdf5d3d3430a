/**
 * gRPC on Unix sockets: {@link io.criresmgr.grpc.unix.UnixGrpc} builds servers and channels, {@link
 * io.criresmgr.grpc.unix.EventLoops} the epoll loops they run on, {@link
 * io.criresmgr.grpc.unix.Shutdown} stops servers, channels and executors the one way the project
 * does. Shared by the daemon, the agent, the simulated runtime and their tests, so none of them
 * depends on another for its transport.
 */
@NullMarked
package io.criresmgr.grpc.unix;

import org.jspecify.annotations.NullMarked;
