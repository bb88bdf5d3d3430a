/**
 * Host cgroups: detects the v1, v2 or hybrid layout, finds a container's cgroup for the cgroupfs
 * and systemd drivers, and writes cgroup files idempotently.
 */
@NullMarked
package io.criresmgr.controllers.cgroups;

import org.jspecify.annotations.NullMarked;
