/**
 * The daemon's configuration: immutable records parsed strictly from cri-resmgr's YAML layout, and
 * the store that swaps, notifies and rolls back whole configurations.
 */
@NullMarked
package io.criresmgr.proxy.config;

import org.jspecify.annotations.NullMarked;
