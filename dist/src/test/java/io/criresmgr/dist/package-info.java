/**
 * Checks of the built distribution archive: its NOTICE lists exactly the jars in {@code lib/},
 * LICENSE and NOTICE sit at its top and in our jars, and its entries carry the fixed
 * reproducible-build time and owner (docs/building.md).
 */
@NullMarked
package io.criresmgr.dist;

import org.jspecify.annotations.NullMarked;
