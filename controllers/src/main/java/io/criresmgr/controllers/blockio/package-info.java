/**
 * Block I/O classes (cri-resmgr's {@code blockio} section): class parameters, device globs resolved
 * to major:minor under a host root, and the cgroup v1 {@code blkio.*} and v2 {@code
 * io.weight}/{@code io.max} file contents of a class, and the {@code blockio} controller writing
 * them.
 */
@NullMarked
package io.criresmgr.controllers.blockio;

import org.jspecify.annotations.NullMarked;
