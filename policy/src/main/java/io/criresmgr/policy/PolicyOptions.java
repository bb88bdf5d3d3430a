package io.criresmgr.policy;

/** A policy's parsed, immutable options (a record implements it). */
public interface PolicyOptions {
  /** Options of a policy that has none. */
  PolicyOptions NONE = new PolicyOptions() {};
}
