package io.criresmgr.policy.none;

import io.criresmgr.policy.PolicyProvider;

/** The {@code none} policy: makes no placement decisions; the runtime's defaults apply. */
public final class NonePolicyProvider implements PolicyProvider {
  /** The policy's name. */
  public static final String NAME = "none";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "A no-op policy, doing pretty much nothing.";
  }
}
