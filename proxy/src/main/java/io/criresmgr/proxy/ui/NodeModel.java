package io.criresmgr.proxy.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.Resources;
import io.criresmgr.controllers.memoryqos.MemoryQosAnnotations;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.proxy.core.Introspection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The JSON model of the node view (docs/ui.md, "The model"): {@code format}, {@code version},
 * {@code policy}, {@code topology} ({@link TopologyJson}), {@code cpuSets} ({@link PolicySets}),
 * {@code pods} with their containers (each with {@code why} it is there, when the policy said), the
 * last {@code refusals}, and the policy's own {@code policyView}. One model for the live page and
 * for anything that draws the node offline: a page that defines {@code window.NODE_MODEL} before
 * {@code view.js} is drawn from it, without polling.
 */
public final class NodeModel {
  /** The model's {@code format}: changes only when a field changes meaning or goes away. */
  public static final int FORMAT = 1;

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private NodeModel() {}

  /** The model of {@code snapshot} on a node of {@code topology}. */
  public static ObjectNode of(NodeSnapshot snapshot, SystemTopology topology) {
    return of(snapshot, TopologyJson.write(topology));
  }

  /**
   * The model of {@code snapshot} on a node whose {@link TopologyJson#write} is {@code topology}.
   */
  static ObjectNode of(NodeSnapshot snapshot, ObjectNode topology) {
    ObjectNode out = JSON.objectNode();
    out.put("format", FORMAT);
    out.put("version", snapshot.version());
    out.put("policy", snapshot.policy());
    out.set("topology", topology);
    out.set("cpuSets", PolicySets.of(snapshot.policy(), snapshot.policyView()));
    out.set("pods", pods(snapshot));
    ArrayNode refusals = out.putArray("refusals");
    snapshot.refusals().forEach(r -> refusals.add(Introspection.json(r)));
    if (snapshot.policyView() != null) {
      out.set("policyView", snapshot.policyView());
    }
    return out;
  }

  private static ArrayNode pods(NodeSnapshot snapshot) {
    Map<String, List<Container>> byPod =
        snapshot.containers().stream().collect(Collectors.groupingBy(Container::podId));
    Map<String, Pod> pods =
        snapshot.pods().stream().collect(Collectors.toMap(Pod::id, Function.identity()));
    ArrayNode out = JSON.arrayNode();
    for (Pod pod : snapshot.pods()) {
      ObjectNode p = out.addObject();
      p.put("id", pod.id());
      p.put("uid", pod.uid());
      p.put("name", pod.name());
      p.put("namespace", pod.namespace());
      p.put("qosClass", pod.qosClass().label());
      p.put("ready", pod.ready());
      ArrayNode containers = p.putArray("containers");
      for (Container c : byPod.getOrDefault(pod.id(), List.of())) {
        ObjectNode container = container(c, pods);
        Explanation why = snapshot.why().get(c.cacheId());
        if (why != null) {
          container.set("why", Introspection.json(why));
        }
        containers.add(container);
      }
    }
    return out;
  }

  private static ObjectNode container(Container c, Map<String, Pod> pods) {
    ObjectNode out = JSON.objectNode();
    out.put("cacheId", c.cacheId());
    out.put("id", c.id());
    out.put("name", c.name());
    out.put("state", c.state().name().toLowerCase(Locale.ROOT));
    out.put("qosClass", c.qosClass().label());
    LinuxResources effective = c.effectiveResources();
    out.put("cpus", effective.cpusetCpus());
    out.put("mems", effective.cpusetMems());
    Resources r = c.adjustedResources();
    ObjectNode requests = out.putObject("requests");
    requests.put("cpuMilli", r.cpuRequestMilli());
    requests.put("memoryBytes", r.memoryRequestBytes());
    ObjectNode limits = out.putObject("limits");
    limits.put("cpuMilli", r.cpuLimitMilli());
    limits.put("memoryBytes", r.memoryLimitBytes());
    ObjectNode classes = out.putObject("classes");
    classes.put("rdt", c.assignment().rdtClass());
    classes.put("blockIo", c.assignment().blockIoClass());
    classes.put("memoryQos", memoryQosClass(c, pods));
    ObjectNode unified = out.putObject("unified");
    new TreeMap<>(effective.unified()).forEach(unified::put);
    return out;
  }

  /** The memory QoS class its pod's annotations give it, or "" (docs/controllers/memory-qos.md). */
  private static String memoryQosClass(Container c, Map<String, Pod> pods) {
    Pod pod = pods.get(c.podId());
    if (pod == null) {
      return "";
    }
    MemoryQosAnnotations.Setting s =
        MemoryQosAnnotations.of(pod.annotations(), c.name())
            .settings()
            .get(MemoryQosAnnotations.CLASS);
    return s == null ? "" : s.value();
  }
}
