/**
 * Benchmarks of the cache module's package-private code: the cache file's encoder
 * (docs/benchmarks.md, "The cache file's encoder").
 */
@NullMarked
package io.criresmgr.cache;

import org.jspecify.annotations.NullMarked;
