/**
 * Test kit for the integration tests of other modules: the real daemon in-process in front of the
 * simulated runtime, and kubelet's side of the CRI. Shipped in the proxy's test jar.
 */
@NullMarked
package io.criresmgr.proxy.testkit;

import org.jspecify.annotations.NullMarked;
