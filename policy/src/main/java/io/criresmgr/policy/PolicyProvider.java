package io.criresmgr.policy;

/**
 * A placement policy's entry in the {@link PolicyRegistry}: its name and a one-line description.
 *
 * <p>Only identity for now; the decision methods arrive with the resource-management pipeline.
 */
public interface PolicyProvider {
  /** The name used in {@code policy.Active} and {@code --list-policies}. */
  String name();

  /** A one-line description shown by {@code --list-policies}. */
  String description();
}
