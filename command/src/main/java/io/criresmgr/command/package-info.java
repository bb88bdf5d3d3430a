/**
 * The {@code cri-resmgr} program: {@link io.criresmgr.command.Main} runs the daemon's command tree
 * (module proxy) with the subcommands of the modules above it, {@code sim-runtime} and {@code
 * simulate}.
 */
@NullMarked
package io.criresmgr.command;

import org.jspecify.annotations.NullMarked;
