/** Process wiring of the daemon: start-up order, shutdown, signals. */
@NullMarked
package io.criresmgr.proxy.daemon;

import org.jspecify.annotations.NullMarked;
