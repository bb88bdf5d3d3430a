/**
 * Test kit for the modules above the daemon: the real daemon in-process in front of the simulated
 * runtime ({@link io.criresmgr.testkit.InProcessDaemon}), and kubelet's side of the CRI ({@link
 * io.criresmgr.testkit.KubeletClient}). Its own module, never shipped, as grpc-java's {@code
 * grpc-testing} and OkHttp's {@code mockwebserver} are; docs/architecture.md says why proxy's own
 * tests keep theirs.
 */
@NullMarked
package io.criresmgr.testkit;

import org.jspecify.annotations.NullMarked;
