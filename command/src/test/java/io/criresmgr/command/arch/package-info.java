/** Architecture rules checked in the build (ArchUnit). */
@NullMarked
package io.criresmgr.command.arch;

import org.jspecify.annotations.NullMarked;
