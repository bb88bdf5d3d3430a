package io.criresmgr.policy.properties;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A policy on a generated topology with a {@link FakeNode}, driven by {@link Step}s as the pipeline
 * drives it: decisions are applied all or nothing, a step the policy refuses ({@link
 * PolicyException}) is rolled back. CPU 0 is reserved.
 */
final class Node implements AutoCloseable {
  static final CpuSet RESERVED = CpuSet.of(0);

  final PolicyKind kind;
  final CpuSet online;
  final FakeNode node;
  final Policy policy;
  private final Path root;
  private int created;

  Node(PolicyKind kind, TopologySpec spec) throws IOException {
    this.kind = kind;
    this.root = Files.createTempDirectory("policy-properties");
    FakeSysfsWriter.write(spec, root);
    int cpus = spec.groups().stream().mapToInt(g -> g.nodeCount() * g.cpusPerNode()).sum();
    int nodes = spec.groups().stream().mapToInt(TopologySpec.Group::nodeCount).sum();
    this.online = CpuSet.range(0, cpus - 1);
    PolicyProvider<?> provider = kind.provider();
    PolicyContext context =
        new PolicyContext(
            root, online, CpuSet.range(0, nodes - 1), Map.of(), Map.of("CPU", "cpuset:0"));
    this.policy = provider.parseAndCreate(context, kind.options());
    this.node = new FakeNode(provider.name());
  }

  /** Runs {@code step}; false if the policy refused it (and it was rolled back). */
  boolean run(Step step) {
    List<Container> active = active();
    if (step instanceof Step.Create create) {
      return create("p" + created % 3, "c" + created++, create.resources());
    }
    if (active.isEmpty()) {
      return false;
    }
    if (step instanceof Step.Release release) {
      return release(active.get(Math.floorMod(release.index(), active.size())));
    }
    Step.Update update = (Step.Update) step;
    return update(active.get(Math.floorMod(update.index(), active.size())), update.scale());
  }

  boolean create(String pod, String name, Resources resources) {
    Container c = node.create(pod, name, resources);
    try {
      node.apply(policy.allocate(c, node.cache()));
    } catch (PolicyException e) {
      node.cache().removeContainer(c.cacheId());
      return false;
    }
    node.setState(c.cacheId(), ContainerState.RUNNING);
    return true;
  }

  boolean release(Container target) {
    Container exited = node.setState(target.cacheId(), ContainerState.EXITED);
    try {
      node.apply(policy.release(exited, node.cache()));
    } catch (PolicyException e) {
      node.restore(target);
      return false;
    }
    node.cache().removeContainer(exited.cacheId());
    return true;
  }

  private boolean update(Container target, int scale) {
    Container changed = node.setResources(target.cacheId(), resize(target.qosClass(), scale));
    try {
      Decisions d = policy.update(changed, node.cache());
      node.apply(d);
    } catch (PolicyException e) {
      node.restore(target);
      return false;
    }
    return true;
  }

  /** {@code scale} CPUs' worth of resources that keep {@code qos}. */
  private static Resources resize(QosClass qos, int scale) {
    return switch (qos) {
      case GUARANTEED -> new Resources(scale * 1000L, scale * 1000L, 64L << 20, 64L << 20);
      case BURSTABLE -> new Resources(scale * 250L, 0, 32L << 20, 0);
      default -> new Resources(0, 0, 0, 0);
    };
  }

  /** Releases and removes every active container. */
  void releaseAll() {
    for (Container c : active()) {
      if (!release(c)) {
        throw new AssertionError(kind + " refused to release " + c.cacheId());
      }
    }
  }

  List<Container> active() {
    return node.cache().containers().stream().filter(c -> c.state().isActive()).toList();
  }

  @Override
  public void close() throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
