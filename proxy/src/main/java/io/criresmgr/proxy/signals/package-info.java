/**
 * POSIX signal handlers of the daemon: SIGHUP reloads a forced configuration, SIGUSR1 toggles debug
 * logging, SIGTERM and SIGINT stop it in order with exit status 0.
 */
@NullMarked
package io.criresmgr.proxy.signals;

import org.jspecify.annotations.NullMarked;
