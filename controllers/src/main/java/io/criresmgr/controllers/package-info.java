/** The controller SPI: hooks that enforce decisions on the host. */
@NullMarked
package io.criresmgr.controllers;

import org.jspecify.annotations.NullMarked;
