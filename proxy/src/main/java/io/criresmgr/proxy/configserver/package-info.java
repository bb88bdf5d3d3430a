/**
 * The config server for the node agent: the {@code v1.Config} gRPC service on the config socket.
 */
@NullMarked
package io.criresmgr.proxy.configserver;

import org.jspecify.annotations.NullMarked;
