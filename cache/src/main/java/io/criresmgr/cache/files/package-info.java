/**
 * Safe reading of the files the daemon reads, and private state files: every file must be a regular
 * file of bounded size, checked without opening it (a FIFO would block the reader, a device never
 * ends); state files may link only within their directory; parsers of untrusted text are bounded
 * ({@link io.criresmgr.cache.files.ParseLimits}). The state directory is private (0700). Everything
 * here is stateless and safe to use from any thread. The files and how the daemon fails on each are
 * listed in docs/files.md.
 */
@NullMarked
package io.criresmgr.cache.files;

import org.jspecify.annotations.NullMarked;
