/** End-to-end tests: a crictl-style workflow against a real containerd, direct and proxied. */
@NullMarked
package io.criresmgr.e2e;

import org.jspecify.annotations.NullMarked;
