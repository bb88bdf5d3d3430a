/**
 * Logging control: which log sources (cri-resmgr's names such as {@code cache} or {@code policy})
 * log at debug level, set from {@code logger.Debug}, {@code LOGGER_DEBUG} and {@code SIGUSR1}; and
 * cri-resmgr's klog flags ({@code -v}, {@code -skip_headers}, ... on the command line, as {@code
 * LOGGER_<FLAG>} and in {@code logger.Klog}): the time stamp follows {@code skip_headers}, the rest
 * is warned of once. Thread-safe.
 */
@NullMarked
package io.criresmgr.proxy.log;

import org.jspecify.annotations.NullMarked;
