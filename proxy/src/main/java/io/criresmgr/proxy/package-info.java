/** The cri-resmgr daemon: command line and process wiring. */
@NullMarked
package io.criresmgr.proxy;

import org.jspecify.annotations.NullMarked;
