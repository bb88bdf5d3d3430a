/**
 * Tests of the container images that jib builds in modules command, agent and webhook
 * (docs/images.md): their configuration, read from the OCI tarballs, and their entry points, run in
 * a private containerd.
 */
@NullMarked
package io.criresmgr.images;

import org.jspecify.annotations.NullMarked;
