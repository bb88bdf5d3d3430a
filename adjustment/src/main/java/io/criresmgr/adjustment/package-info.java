/**
 * The {@code Adjustment} custom resource's spec, shared by the node agent and the daemon so the two
 * never disagree about what a valid spec is (docs/adr/0014-one-adjustment-model.md): the model as
 * written ({@link AdjustmentSpec}, {@link ScopeEntry}, {@link ContainerExpression}, {@link
 * Quantity}), the one {@link AdjustmentValidator} that reads it from a plain Java tree, and what it
 * needs: {@link Quantities}, {@link Operator}, {@link Glob}. Every type is immutable or stateless
 * and thread-safe. No dependencies: each side converts its own JSON library's tree.
 */
@NullMarked
package io.criresmgr.adjustment;

import org.jspecify.annotations.NullMarked;
