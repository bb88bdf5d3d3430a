/**
 * Logging control: which log sources (cri-resmgr's names such as {@code cache} or {@code policy})
 * log at debug level, set from {@code logger.Debug}, {@code LOGGER_DEBUG} and {@code SIGUSR1}.
 * Thread-safe.
 */
@NullMarked
package io.criresmgr.proxy.log;

import org.jspecify.annotations.NullMarked;
