/**
 * The simulated CRI runtime: an in-memory RuntimeService and ImageService for tests, the simulator
 * and {@code cri-resmgr sim-runtime}.
 */
@NullMarked
package io.criresmgr.proxy.sim;

import org.jspecify.annotations.NullMarked;
