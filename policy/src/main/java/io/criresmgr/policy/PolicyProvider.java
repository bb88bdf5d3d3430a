package io.criresmgr.policy;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A placement policy's entry in the {@link PolicyRegistry}: its identity, its options parser and
 * its factory (the shape of grpc-java's {@code LoadBalancerProvider}).
 */
public interface PolicyProvider {
  /** The name used in {@code policy.Active} and {@code --list-policies}. */
  String name();

  /** A one-line description shown by {@code --list-policies}. */
  String description();

  /**
   * Parses the policy's section {@code policy.<name>} (an empty object when absent) into its own
   * immutable options value.
   *
   * @throws PolicyException naming the field, the bad value and what is allowed
   */
  PolicyOptions parseOptions(JsonNode section);

  /** Creates the policy; called once per activation, on the pipeline thread. */
  Policy create(PolicyContext context, PolicyOptions options);
}
