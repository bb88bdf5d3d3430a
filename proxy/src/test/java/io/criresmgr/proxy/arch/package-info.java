/** Architecture rules checked in the build (ArchUnit). */
@NullMarked
package io.criresmgr.proxy.arch;

import org.jspecify.annotations.NullMarked;
