/**
 * The NRI front end (docs/nri.md): the daemon as a containerd NRI plugin, feeding the runtime's pod
 * and container events into the same core ({@code io.criresmgr.proxy.core}: pipeline, cache,
 * policies and controllers) as the CRI relay, which it never depends on
 * (docs/adr/0012-core-and-front-ends.md). NRI messages become the CRI requests the pipeline handles
 * ({@link io.criresmgr.proxy.nri.NriToCri}); the pipeline's runtime is an in-process CRI service
 * answered from what NRI reported ({@link io.criresmgr.proxy.nri.NriBackedRuntime}), and what the
 * pipeline sends it becomes NRI's container adjustment and updates ({@link
 * io.criresmgr.proxy.nri.CriToNri}).
 */
@NullMarked
package io.criresmgr.proxy.nri;

import org.jspecify.annotations.NullMarked;
