/**
 * External adjustments (the {@code Adjustment} custom resource, docs/adjustments.md): their specs
 * as the node agent sends them, which containers they apply to, and the conflicts that reject a
 * set.
 */
@NullMarked
package io.criresmgr.cache.adjustment;

import org.jspecify.annotations.NullMarked;
