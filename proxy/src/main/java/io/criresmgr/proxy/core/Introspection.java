package io.criresmgr.proxy.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.Resources;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.Introspectable;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The JSON served at {@code /introspect}: every pod and container with its state, requests and
 * limits, current assignment and why the policy placed it there ({@code why}), the last refusals
 * ({@code refusals}), and the active policy's own view when it offers one. Built in a pipeline
 * step, so it is a consistent picture.
 */
public final class Introspection {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Introspection() {}

  /** Takes the picture in the pipeline; waits at most 5 seconds for it. */
  public static String json(Pipeline pipeline) throws InterruptedException {
    try {
      ObjectNode node = pipeline.run(Introspection::build).get(5, TimeUnit.SECONDS);
      return JSON.writeValueAsString(node);
    } catch (ExecutionException | TimeoutException | java.io.IOException e) {
      throw new IllegalStateException("cannot introspect: " + e, e);
    }
  }

  static ObjectNode build(Section s) {
    ObjectNode root = JSON.createObjectNode();
    root.put("policy", s.policy().name());
    ArrayNode pods = root.putArray("pods");
    for (Pod pod : s.cache().pods()) {
      ObjectNode p = pods.addObject();
      p.put("id", pod.id());
      p.put("uid", pod.uid());
      p.put("name", pod.name());
      p.put("namespace", pod.namespace());
      p.put("qosClass", pod.qosClass().label());
      p.put("ready", pod.ready());
      ArrayNode containers = p.putArray("containers");
      for (Container c : s.cache().containersOf(pod.id())) {
        ObjectNode out = containers.addObject();
        container(out, c);
        s.explanations().of(c.cacheId()).ifPresent(why -> out.set("why", json(why)));
      }
    }
    ArrayNode refusals = root.putArray("refusals");
    s.explanations().refusals().forEach(r -> refusals.add(json(r)));
    if (s.policy().policy() instanceof Introspectable view) {
      root.set("policyView", view.introspect(s.cache()));
    }
    return root;
  }

  private static void container(ObjectNode out, Container c) {
    out.put("cacheId", c.cacheId());
    out.put("id", c.id());
    out.put("name", c.name());
    out.put("state", c.state().name().toLowerCase(Locale.ROOT));
    out.put("initContainer", c.initContainer());
    resources(out.putObject("resources"), c.resources());
    if (!c.adjustment().isNone()) {
      adjustment(out.putObject("adjustment"), c);
    }
    assignment(out.putObject("assignment"), c.assignment());
    if (!c.topologyHints().isEmpty()) {
      ArrayNode hints = out.putArray("topologyHints");
      for (TopologyHint h : c.topologyHints()) {
        ObjectNode hint = hints.addObject();
        hint.put("provider", h.provider());
        hint.put("cpus", h.cpus().toString());
        hint.put("numas", h.numas().toString());
      }
    }
    ArrayNode pending = out.putArray("pending");
    c.pending().forEach(pending::add);
  }

  /** {@code why} as JSON: {@code summary} and {@code candidates} ({@code name, score, verdict}). */
  public static ObjectNode json(Explanation why) {
    ObjectNode out = JSON.createObjectNode();
    out.put("summary", why.summary());
    ArrayNode candidates = out.putArray("candidates");
    for (Explanation.Candidate c : why.candidates()) {
      candidates
          .addObject()
          .put("name", c.name())
          .put("score", c.score())
          .put("verdict", c.verdict());
    }
    return out;
  }

  /** A refusal as JSON: who, when, the message kubelet got and the explanation ({@code why}). */
  public static ObjectNode json(Explanations.Refusal r) {
    ObjectNode out = JSON.createObjectNode();
    out.put("namespace", r.namespace());
    out.put("pod", r.pod());
    out.put("container", r.container());
    out.put("at", r.at());
    out.put("message", r.message());
    out.set("why", json(r.why()));
    return out;
  }

  private static void resources(ObjectNode out, Resources r) {
    out.put("cpuRequestMilli", r.cpuRequestMilli());
    out.put("cpuLimitMilli", r.cpuLimitMilli());
    out.put("memoryRequestBytes", r.memoryRequestBytes());
    out.put("memoryLimitBytes", r.memoryLimitBytes());
  }

  /** The adjustment's name, the resources policies place by, and its other overrides. */
  private static void adjustment(ObjectNode out, Container c) {
    Adjustment a = c.adjustment();
    out.put("name", a.name());
    resources(out.putObject("adjustedResources"), c.adjustedResources());
    out.put("rdtClass", a.rdtClass());
    out.put("blockIoClass", a.blockIoClass());
    a.toptierLimitBytes().ifPresent(limit -> out.put("toptierLimitBytes", limit));
  }

  private static void assignment(ObjectNode out, Assignment a) {
    out.put("cpus", a.cpus().toString());
    out.put("mems", a.mems().toString());
    out.put("cpuShares", a.cpuShares());
    out.put("cpuQuota", a.cpuQuota());
    out.put("cpuPeriod", a.cpuPeriod());
    out.put("memoryLimitBytes", a.memoryLimitBytes());
    out.putPOJO("unified", a.unified());
    out.put("rdtClass", a.rdtClass());
    out.put("blockIoClass", a.blockIoClass());
  }
}
