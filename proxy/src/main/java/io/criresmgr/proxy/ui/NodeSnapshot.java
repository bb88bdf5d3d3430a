package io.criresmgr.proxy.ui;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.Introspectable;
import io.criresmgr.proxy.core.Explanations;
import io.criresmgr.proxy.core.Pipeline;
import io.criresmgr.proxy.core.Section;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the view shows of the pipeline's state, taken in one step: immutable values only, so the
 * model is built from it on another thread.
 *
 * @param version {@link Pipeline#version()} of this state
 * @param policy the active policy's name
 * @param pods every pod of the cache
 * @param containers every container of the cache
 * @param policyView the policy's introspection view, null if it offers none
 * @param why why the policy placed each container (cache id to explanation), where it said
 * @param refusals the last containers the policy refused, oldest first
 */
public record NodeSnapshot(
    long version,
    String policy,
    List<Pod> pods,
    List<Container> containers,
    @Nullable JsonNode policyView,
    Map<String, Explanation> why,
    List<Explanations.Refusal> refusals) {
  /** Checks for nulls and copies the lists. */
  public NodeSnapshot {
    Objects.requireNonNull(policy, "policy");
    pods = List.copyOf(pods);
    containers = List.copyOf(containers);
    why = Map.copyOf(why);
    refusals = List.copyOf(refusals);
  }

  /** Takes the snapshot in a step of {@code pipeline} (on its thread). */
  static NodeSnapshot take(Pipeline pipeline, Section s) {
    JsonNode view =
        s.policy().policy() instanceof Introspectable i ? i.introspect(s.cache()) : null;
    return new NodeSnapshot(
        pipeline.version(),
        s.policy().name(),
        s.cache().pods(),
        s.cache().containers(),
        view,
        s.explanations().byContainer(),
        s.explanations().refusals());
  }
}
