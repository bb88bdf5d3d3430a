/** The list of built-in controllers: the one place a new controller is registered. */
@NullMarked
package io.criresmgr.controllers.builtin;

import org.jspecify.annotations.NullMarked;
