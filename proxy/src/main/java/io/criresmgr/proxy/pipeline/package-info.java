/**
 * The resource-management pipeline: intercepted CRI requests run through one serialized section
 * that owns the node cache, the active policy and the controllers.
 *
 * <pre>
 *  kubelet ──► relay server ──┬─ other methods ──────────────── raw relay ──────────────► runtime
 *                             │
 *                             └─ intercepted (InterceptedService)
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
 * <p>Thread-safety: {@link io.criresmgr.proxy.pipeline.Section} and everything it holds are
 * confined to the pipeline thread; everything else here is safe to call from transport threads.
 *
 * <p>Why: docs/adr/0001-two-step-serialized-pipeline.md.
 */
@NullMarked
package io.criresmgr.proxy.pipeline;

import org.jspecify.annotations.NullMarked;
