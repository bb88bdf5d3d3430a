package io.criresmgr.policy;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A placement policy's entry in the {@link PolicyRegistry}: its identity, its options parser and
 * its factory (the shape of grpc-java's {@code LoadBalancerProvider}). The options type is the
 * provider's own, so the factory gets exactly what its parser made.
 *
 * @param <O> the policy's immutable options
 */
public interface PolicyProvider<O extends PolicyOptions> {
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
  O parseOptions(JsonNode section);

  /** Creates the policy; called once per activation, on the pipeline thread. */
  Policy create(PolicyContext context, O options);

  /**
   * Parses {@code section} and creates the policy with those options: how a caller holding a
   * provider of options it does not know creates the policy.
   *
   * @throws PolicyException if the options or the context are refused
   */
  default Policy parseAndCreate(PolicyContext context, JsonNode section) {
    return create(context, parseOptions(section));
  }
}
