/**
 * Intel RDT through resctrl (cri-resmgr's {@code rdt} controller): the {@code rdt} configuration
 * section, resctrl discovery, each class's schemata, the {@code cri-resmgr.<class>} groups and the
 * assignment of container tasks, the class a container asks for, and the {@code rdt} controller.
 */
@NullMarked
package io.criresmgr.controllers.rdt;

import org.jspecify.annotations.NullMarked;
