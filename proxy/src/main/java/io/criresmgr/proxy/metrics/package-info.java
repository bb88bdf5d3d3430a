/**
 * Prometheus metrics (Micrometer) of the relay and the process, served as text at {@code /metrics}
 * on {@code instrumentation.HTTPEndpoint}.
 */
@NullMarked
package io.criresmgr.proxy.metrics;

import org.jspecify.annotations.NullMarked;
