/**
 * The daemon's core, neutral to its front ends: the resource-management pipeline, where intercepted
 * CRI requests run through one serialized section that owns the node cache, the active policy and
 * the controllers. A front end (the CRI relay, {@code io.criresmgr.proxy.relay}; NRI mode, {@code
 * io.criresmgr.proxy.nri}) hands {@link io.criresmgr.proxy.core.ResourceManager}'s {@link
 * io.criresmgr.proxy.core.Requests} its CRI requests; the core calls the runtime through a gRPC
 * channel and never depends on a front end, a gRPC server or Netty (checked by {@code
 * ArchitectureTest}).
 *
 * <pre>
 *  kubelet ──► relay server ──┬─ other methods ──────────────── raw relay ──────────────► runtime
 *                             │
 *                             └─ intercepted (relay.InterceptedService, or the NRI front end)
 *                                   │
 *                      ┌────────────▼─────────────┐   step 1 (serialized, no runtime wait)
 *                      │ cache update             │   insert pod/container, mark CREATING
 *                      │ policy decision          │   Decisions applied all or nothing
 *                      │ controllers' pre-hooks   │   CRI controller rewrites the request
 *                      │ updates of other ctrs    │   queued per container, in decision order
 *                      └────────────┬─────────────┘
 *                                   ▼ (section released)
 *                           runtime call  ◄──────── waits for the implied updates first
 *                                   ▼
 *                      ┌──────────────────────────┐   step 2 (serialized)
 *                      │ commit or roll back      │   record id/state, or release the
 *                      │ controllers' post-hooks  │   reservation and undo what it implied
 *                      └──────────────────────────┘
 * </pre>
 *
 * <p>Thread-safety: {@link io.criresmgr.proxy.core.Section} and everything it holds are confined to
 * the pipeline thread; everything else here is safe to call from transport threads.
 *
 * <p>Why: docs/adr/0001-two-step-serialized-pipeline.md; the split from the front ends:
 * docs/adr/0012-core-and-front-ends.md.
 */
@NullMarked
package io.criresmgr.proxy.core;

import org.jspecify.annotations.NullMarked;
