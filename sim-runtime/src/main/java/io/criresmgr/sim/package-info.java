/**
 * The simulated CRI runtime: an in-memory RuntimeService and ImageService for tests, the simulator
 * and {@code cri-resmgr sim-runtime}.
 *
 * <p>Entry points: {@link io.criresmgr.sim.SimRuntime} (both services over one state, plus {@link
 * io.criresmgr.sim.SimHooks} for latency, failures and recorded requests), {@link
 * io.criresmgr.sim.SimRuntimeServer} (serves it on a Unix socket) and {@link
 * io.criresmgr.sim.SimRuntimeCommand} (the command line). Everything here is thread-safe; the state
 * is guarded by one lock and container events are delivered on one thread. Semantics:
 * docs/simulated-runtime.md.
 */
@NullMarked
package io.criresmgr.sim;

import org.jspecify.annotations.NullMarked;
