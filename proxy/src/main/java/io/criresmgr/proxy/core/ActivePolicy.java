package io.criresmgr.proxy.core;

import io.criresmgr.policy.Policy;
import java.util.Objects;

/**
 * The policy making decisions, with its name.
 *
 * @param name the policy's registered name
 * @param policy the policy
 */
public record ActivePolicy(String name, Policy policy) {
  /** Checks for nulls. */
  public ActivePolicy {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(policy, "policy");
  }
}
