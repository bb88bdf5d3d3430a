package io.criresmgr.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Random snapshots the daemon could have written, and random changes of them, from one seeded
 * {@link Random}.
 */
final class RandomSnapshots {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final String[] PIECES = {
    "a", "Z", "0", "-", ".", "/", ":", "%", " ", "\"", "\\", "\u0001", "\n", "é", "中", "😀", ""
  };
  private final Random random;
  private final Set<String> runtimeIds = new HashSet<>();
  private final RandomJson json;

  RandomSnapshots(Random random) {
    this.random = random;
    this.json = new RandomJson(random);
  }

  CacheSnapshot snapshot() {
    Map<String, Pod> pods = new HashMap<>();
    Map<String, Container> containers = new HashMap<>();
    for (int p = random.nextInt(4); p > 0; p--) {
      Pod pod = pod();
      pods.put(pod.id(), pod);
      for (int c = random.nextInt(4); c > 0; c--) {
        Container container = container(pod);
        containers.put(container.cacheId(), container);
      }
    }
    return new CacheSnapshot(
        CacheSnapshot.VERSION,
        pods,
        containers,
        random.nextLong() & Long.MAX_VALUE,
        text(),
        map(this::policyData),
        random.nextBoolean() ? Optional.empty() : Optional.of(text()),
        random.nextBoolean()
            ? Optional.empty()
            : Optional.of(new StoredAdjustments(text(), text())));
  }

  /**
   * {@code s} with one random change, as a decision or an event makes one: a pod or container
   * added, changed or removed (a pod with its containers), a policy's data, the sequence, the
   * policy's name, the agent's configuration or the adjustments changed.
   */
  CacheSnapshot change(CacheSnapshot s) {
    Map<String, Pod> pods = new HashMap<>(s.pods());
    Map<String, Container> containers = new HashMap<>(s.containers());
    Map<String, JsonNode> policyData = new HashMap<>(s.policyData());
    long nextSeq = s.nextSeq();
    String policy = s.activePolicy();
    Optional<String> agentConfig = s.agentConfig();
    Optional<StoredAdjustments> adjustments = s.adjustments();
    switch (random.nextInt(10)) {
      case 0 -> {
        Pod pod = pod();
        pods.put(pod.id(), pod);
      }
      case 1 -> {
        String gone = anyKey(pods);
        if (gone != null) {
          pods.remove(gone);
          containers.values().removeIf(c -> c.podId().equals(gone));
        }
      }
      case 2, 3 -> {
        String podId = anyKey(pods);
        if (podId != null) {
          Container c = container(pods.get(podId));
          containers.put(c.cacheId(), c);
        }
      }
      case 4 -> {
        String gone = anyKey(containers);
        if (gone != null) {
          containers.remove(gone);
        }
      }
      case 5, 6 -> {
        String changed = anyKey(containers);
        if (changed != null) {
          Container c = containers.get(changed);
          containers.put(changed, c.withAssignment(assignment(), new HashSet<>(list(this::text))));
        }
      }
      case 7 -> {
        String name = random.nextBoolean() ? anyKey(policyData) : null;
        JsonNode data = name != null ? policyData.get(name) : null;
        if (name != null && random.nextBoolean()) {
          policyData.remove(name);
        } else if (data != null && data.isObject() && random.nextBoolean()) {
          policyData.put(name, json.editObject(data, 3)); // a change inside: a patch
        } else {
          policyData.put(name != null ? name : text(), policyData());
        }
      }
      case 8 -> nextSeq = random.nextLong() & Long.MAX_VALUE;
      default -> {
        switch (random.nextInt(3)) {
          case 0 -> policy = text();
          case 1 -> agentConfig = random.nextBoolean() ? Optional.empty() : Optional.of(text());
          default ->
              adjustments =
                  random.nextBoolean()
                      ? Optional.empty()
                      : Optional.of(new StoredAdjustments(text(), text()));
        }
      }
    }
    return new CacheSnapshot(
        s.version(), pods, containers, nextSeq, policy, policyData, agentConfig, adjustments);
  }

  private <T> @Nullable String anyKey(Map<String, T> map) {
    if (map.isEmpty()) {
      return null;
    }
    List<String> keys = new ArrayList<>(new TreeSet<>(map.keySet()));
    return keys.get(random.nextInt(keys.size()));
  }

  private Pod pod() {
    return new Pod(
        "sandbox-" + text(),
        "uid-" + text(),
        text(),
        text(),
        map(this::text),
        map(this::text),
        text(),
        pick(QosClass.values()),
        new PodResources(map(this::resources), map(this::resources)),
        random.nextBoolean());
  }

  private Container container(Pod pod) {
    String runtimeId = random.nextInt(4) == 0 ? "" : "c-" + runtimeIds.size();
    runtimeIds.add(runtimeId);
    String name = text();
    return Container.builder()
        .cacheId(Container.cacheId(pod.uid(), name))
        .id(runtimeId)
        .podId(pod.id())
        .name(name)
        .namespace(text())
        .initContainer(random.nextBoolean())
        .labels(map(this::text))
        .annotations(map(this::text))
        .image(text())
        .state(pick(ContainerState.values()))
        .requested(
            new LinuxResources(
                number(), number(), number(), number(), text(), text(), map(this::text)))
        .resources(resources())
        .qosClass(pick(QosClass.values()))
        .assignment(assignment())
        .pending(new HashSet<>(list(this::text)))
        .seq(random.nextLong() & Long.MAX_VALUE)
        .adjustment(random.nextBoolean() ? Adjustment.NONE : adjustment())
        .topologyHints(list(() -> new TopologyHint(text(), cpus(), cpus())))
        .build();
  }

  private Assignment assignment() {
    return new Assignment(
        cpus(), cpus(), number(), number(), number(), number(), map(this::text), text(), text());
  }

  private Adjustment adjustment() {
    return new Adjustment(
        "adj-" + text(),
        random.nextBoolean() ? Optional.empty() : Optional.of(resourceOverride()),
        text(),
        text(),
        random.nextBoolean() ? OptionalLong.empty() : OptionalLong.of(natural()));
  }

  private ResourceOverride resourceOverride() {
    Optional<ResourceOverride.Amounts> cpu = random.nextBoolean() ? Optional.empty() : amounts();
    return new ResourceOverride(cpu, cpu.isEmpty() || random.nextBoolean() ? amounts() : cpu);
  }

  private Optional<ResourceOverride.Amounts> amounts() {
    long request = natural();
    return Optional.of(new ResourceOverride.Amounts(request, request + natural()));
  }

  private Resources resources() {
    return new Resources(natural(), natural(), natural(), natural());
  }

  private CpuSet cpus() {
    List<Integer> ids = new ArrayList<>();
    for (int n = random.nextInt(6); n > 0; n--) {
      ids.add(random.nextInt(128));
    }
    return CpuSet.of(ids);
  }

  /** A policy's data: any JSON but a bare null, which the file does not allow there. */
  private JsonNode policyData() {
    JsonNode data = node(2);
    return data.isNull() ? NODES.textNode("null") : data;
  }

  private JsonNode node(int depth) {
    return switch (random.nextInt(depth > 0 ? 9 : 7)) {
      case 0 -> NODES.textNode(text());
      case 1 -> NODES.numberNode(random.nextInt());
      case 2 -> NODES.numberNode(random.nextLong() | (1L << 40));
      case 3 -> NODES.numberNode(random.nextDouble() * 1e6 - 5e5);
      case 4 -> NODES.booleanNode(random.nextBoolean());
      case 5 -> NODES.nullNode();
      case 6 -> NODES.textNode("");
      case 7 -> NODES.arrayNode().addAll(list(() -> node(depth - 1)));
      default -> {
        ObjectNode o = NODES.objectNode(); // insertion order, not sorted: as databind keeps it
        list(this::text).forEach(key -> o.set(key, node(depth - 1)));
        yield o;
      }
    };
  }

  private <T> Map<String, T> map(Supplier<T> values) {
    Map<String, T> map = new HashMap<>();
    for (int n = random.nextInt(5); n > 0; n--) {
      map.put(text(), values.get());
    }
    return map;
  }

  private <T> List<T> list(Supplier<T> values) {
    List<T> list = new ArrayList<>();
    for (int n = random.nextInt(4); n > 0; n--) {
      list.add(values.get());
    }
    return list;
  }

  private String text() {
    StringBuilder text = new StringBuilder();
    for (int n = random.nextInt(6); n > 0; n--) {
      text.append(pick(PIECES));
    }
    return text.toString();
  }

  private long number() {
    return switch (random.nextInt(3)) {
      case 0 -> -1;
      case 1 -> random.nextInt(1 << 20);
      default -> random.nextLong();
    };
  }

  private long natural() {
    return random.nextInt(3) == 0 ? random.nextLong() >>> 2 : random.nextInt(100000);
  }

  private <T> T pick(T[] values) {
    return values[random.nextInt(values.length)];
  }
}
