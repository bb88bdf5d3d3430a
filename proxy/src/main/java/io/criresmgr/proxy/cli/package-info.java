/**
 * The {@code cri-resmgr} command line: flags with cri-resmgr's names and defaults (Go-style
 * single-dash spellings included), the start-up sequence before the daemon runs, and signal
 * handling for configuration reloads and the debug toggle.
 */
@NullMarked
package io.criresmgr.proxy.cli;

import org.jspecify.annotations.NullMarked;
