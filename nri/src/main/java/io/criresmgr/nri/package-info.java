/**
 * An NRI plugin in Java: {@link io.criresmgr.nri.NriPlugin} connects to the runtime's NRI socket,
 * registers, and hands configure, synchronize and the pod and container events to an {@link
 * io.criresmgr.nri.NriHandler} (docs/nri.md). The messages are the generated {@code
 * io.criresmgr.nri.api} classes.
 *
 * <p>Threading: the runtime calls a plugin one request at a time, and every handler method runs on
 * the plugin's one ttrpc reader thread, in the runtime's order.
 */
@NullMarked
package io.criresmgr.nri;

import org.jspecify.annotations.NullMarked;
