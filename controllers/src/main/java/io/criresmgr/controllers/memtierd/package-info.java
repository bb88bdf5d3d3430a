/**
 * memtierd (the nri-plugins memtierd plugin's behaviour): the {@code memtierd} configuration
 * section, the {@code class.memtierd.nri.io} annotations, the per-container memtierd configuration
 * and one supervised memtierd process per managed container.
 */
@NullMarked
package io.criresmgr.controllers.memtierd;

import org.jspecify.annotations.NullMarked;
