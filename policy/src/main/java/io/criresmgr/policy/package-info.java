/** The placement policy SPI and registry; built-in policies live in sub-packages. */
@NullMarked
package io.criresmgr.policy;

import org.jspecify.annotations.NullMarked;
