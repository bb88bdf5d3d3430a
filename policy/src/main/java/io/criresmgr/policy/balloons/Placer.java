package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.topologyaware.Annotations;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts containers into balloons and takes them out: chooses the type and the instance, inflates,
 * deflates and deletes balloons, and places every container again after a reconfiguration.
 */
final class Placer {
  private static final Logger LOG = LoggerFactory.getLogger(Placer.class);

  private final BalloonTypeChooser chooser;

  Placer(BalloonTypeChooser chooser) {
    this.chooser = Objects.requireNonNull(chooser, "chooser");
  }

  /**
   * Puts {@code c} into a balloon of its type, inflating or creating one.
   *
   * @return why: the type and what matched it, and whether the balloon was reused, inflated or
   *     created
   * @throws PolicyException if the type is unknown or no instance can take the request
   */
  Explanation place(BalloonSet set, Container c, NodeState node) {
    return placeAs(set, c, node, chooser.chooseExplained(c, pod(c, node)));
  }

  private Explanation placeAs(
      BalloonSet set, Container c, NodeState node, BalloonTypeChooser.Choice choice) {
    BalloonType type = choice.type();
    long milli = requestMilli(c);
    int before = set.balloons().size();
    FillChain.Found found =
        type.isReserved() || type.isDefault()
            ? new FillChain.Found(set.ofType(type.name()).get(0), null)
            : FillChain.choose(set, type, c, milli, node::container, x -> group(type, x, node));
    Balloon b = found.balloon();
    Balloon placed = set.replaceAndResize(b, b.with(c.cacheId(), milli));
    LOG.debug("{}: {} mCPU into {} (CPUs {})", c.name(), milli, placed.name(), placed.cpus());
    String how =
        set.balloons().size() > before
            ? "created"
            : placed.cpus().size() > b.cpus().size()
                ? "inflated from " + b.cpus().size() + " to " + placed.cpus().size() + " CPUs"
                : "reused";
    Explanation why =
        Explanation.of(
            "balloon "
                + placed.name()
                + ": type "
                + type.name()
                + " ("
                + choice.reason()
                + "), "
                + how
                + (found.method() == null ? "" : " (" + found.method().label() + ")"));
    set.explain(c.cacheId(), why);
    return why;
  }

  /**
   * Gives {@code c}'s new request to {@code b}, the balloon holding it, if {@code b} can hold it
   * (the reserved balloon always can: it may be overbooked), so that an update moves no container.
   *
   * @return whether {@code b} took it; if not, nothing changed
   */
  boolean resizeInPlace(BalloonSet set, Balloon b, Container c) {
    long milli = requestMilli(c);
    long others = b.without(c.cacheId()).requestMilli();
    if (!b.fixed() && set.maxCpus(b) * 1000L - others < milli) {
      return false;
    }
    Balloon resized = set.replaceAndResize(b, b.with(c.cacheId(), milli));
    LOG.debug("{}: {} mCPU in {} (CPUs {})", c.name(), milli, resized.name(), resized.cpus());
    return true;
  }

  /** The group of {@code c} under {@code type}'s {@code GroupBy}, if it has one. */
  private static Optional<String> group(BalloonType type, Container c, NodeState node) {
    if (!type.groupBy().enabled()) {
      return Optional.empty();
    }
    return node.pod(c.podId()).flatMap(p -> type.groupBy().of(c, p));
  }

  /** The CPU request of {@code c} in milli-CPUs, 0 for BestEffort containers. */
  static long requestMilli(Container c) {
    return c.qosClass() == QosClass.BEST_EFFORT ? 0 : c.adjustedResources().cpuRequestMilli();
  }

  /** Removes {@code cacheId}; deflates its balloon, deletes it if empty and above MinBalloons. */
  void remove(BalloonSet set, String cacheId) {
    Optional<Balloon> b = set.holding(cacheId);
    if (b.isEmpty()) {
      return;
    }
    Balloon now = set.replaceAndResize(b.get(), b.get().without(cacheId));
    BalloonType t = set.type(now);
    if (now.containers().isEmpty()
        && !now.fixed()
        && !t.isDefault()
        && set.ofType(t.name()).size() > t.minBalloons()) {
      set.delete(now);
    }
  }

  /**
   * Removes the other init containers of {@code c}'s pod: init containers run one after another, so
   * when the next container of the pod is created the earlier ones have finished.
   */
  void releaseOtherInitContainers(BalloonSet set, Container c, NodeState node) {
    for (Container other : node.containers()) {
      if (other.initContainer()
          && other.podId().equals(c.podId())
          && !other.cacheId().equals(c.cacheId())
          && set.holding(other.cacheId()).isPresent()) {
        remove(set, other.cacheId());
        LOG.debug("released init container {} before {}", other.name(), c.name());
      }
    }
  }

  /**
   * Places every active container of {@code node} into {@code set}, oldest pod first, and a pod's
   * containers in creation order, so the result depends only on the configuration and the
   * containers. Containers whose CPUs are preserved stay out.
   *
   * @return one line per container that found no balloon, with the reason
   */
  List<String> placeAll(BalloonSet set, NodeState node) {
    List<String> failures = new ArrayList<>();
    for (Container c : byCreation(node)) {
      if (!c.state().isActive()) {
        continue;
      }
      try {
        if (!cpuPreserved(c, node)) {
          placeAs(set, c, node, typeOrDefault(set, c, node));
        }
      } catch (PolicyException e) {
        failures.add(label(c, node) + ": " + e.getMessage());
      }
    }
    return List.copyOf(failures);
  }

  /**
   * The type of running container {@code c}; the default type if its annotation names a type the
   * configuration no longer has (a running container cannot be refused, and refusing the whole
   * configuration for it would keep the operator from ever removing a type).
   */
  private BalloonTypeChooser.Choice typeOrDefault(BalloonSet set, Container c, NodeState node) {
    Pod pod = pod(c, node);
    try {
      return chooser.chooseExplained(c, pod);
    } catch (PolicyException e) {
      LOG.warn("{}: {}; placed in the default balloon", label(c, node), e.getMessage());
      return new BalloonTypeChooser.Choice(
          set.type(set.ofType(BalloonType.DEFAULT).get(0)), "its annotated type is gone");
    }
  }

  /** Whether {@code c} has the effective annotation {@code cpu.preserve: "true"}. */
  static boolean cpuPreserved(Container c, NodeState node) {
    return node.pod(c.podId())
        .flatMap(p -> Annotations.bool(p, c.name(), Annotations.CPU_PRESERVE))
        .orElse(false);
  }

  /** {@code <namespace>/<pod>/<container>} of {@code c}. */
  static String label(Container c, NodeState node) {
    String pod = node.pod(c.podId()).map(Pod::name).orElse(c.podId());
    return c.namespace() + "/" + pod + "/" + c.name();
  }

  private static List<Container> byCreation(NodeState node) {
    Map<String, Long> podSeq = new HashMap<>();
    for (Container c : node.containers()) {
      podSeq.merge(c.podId(), c.seq(), Math::min);
    }
    return node.containers().stream()
        .sorted(
            Comparator.comparingLong((Container c) -> podSeq.get(c.podId()))
                .thenComparingLong(Container::seq))
        .toList();
  }

  private static Pod pod(Container c, NodeState node) {
    return node.pod(c.podId())
        .orElseThrow(
            () -> new PolicyException("balloons: the pod of " + c.cacheId() + " is not known"));
  }
}
