package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.affinity.Expression;
import io.criresmgr.cache.affinity.Glob;
import io.criresmgr.policy.topologyaware.Annotations;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Chooses a container's balloon type as cri-resmgr's {@code chooseBalloonDef} does, with the match
 * expressions of nri-plugins: the effective annotation {@code
 * balloon.balloons.cri-resource-manager.intel.com} (or {@code
 * balloon.balloons.resource-policy.nri.io}) naming a type; else the first type, in the order {@code
 * reserved}, {@code default}, then the configured ones, whose {@code Namespaces} globs match the
 * container's namespace or one of whose {@code MatchExpressions} matches it; else {@code default}.
 * The reserved type's namespaces include {@code kube-system} and {@code ReservedPoolNamespaces}
 * ({@link BalloonsOptions#effectiveTypes()}).
 */
public final class BalloonTypeChooser {
  /** The annotation name; the keys are it followed by {@code .<domain>}. */
  public static final String ANNOTATION = "balloon.balloons";

  private final List<BalloonType> searchOrder;
  private final BalloonType fallback;

  /** A chooser for {@code options}' effective types. */
  public BalloonTypeChooser(BalloonsOptions options) {
    List<BalloonType> types = options.effectiveTypes();
    List<BalloonType> order = new ArrayList<>();
    types.stream().filter(BalloonType::isReserved).forEach(order::add);
    types.stream().filter(BalloonType::isDefault).forEach(order::add);
    types.stream().filter(t -> !t.isReserved() && !t.isDefault()).forEach(order::add);
    this.searchOrder = List.copyOf(order);
    this.fallback =
        types.stream()
            .filter(BalloonType::isDefault)
            .findFirst()
            .orElseThrow(IllegalStateException::new);
  }

  /**
   * The type of {@code container} of {@code pod}.
   *
   * @throws io.criresmgr.policy.PolicyException if the annotation names no configured type
   */
  public BalloonType choose(Container container, Pod pod) {
    return chooseExplained(container, pod).type();
  }

  /**
   * The type of {@code container} of {@code pod} and why it matched.
   *
   * @throws io.criresmgr.policy.PolicyException if the annotation names no configured type
   */
  public Choice chooseExplained(Container container, Pod pod) {
    Optional<Annotations.Found> annotated =
        Annotations.effective(pod, container.name(), ANNOTATION);
    if (annotated.isPresent()) {
      String name = annotated.get().value().trim();
      BalloonType type =
          searchOrder.stream()
              .filter(t -> t.name().equals(name))
              .findFirst()
              .orElseThrow(
                  () -> annotated.get().invalid("no balloon type of that name; " + known()));
      return new Choice(type, "annotation " + annotated.get().key());
    }
    for (BalloonType t : searchOrder) {
      Optional<String> why = matches(t, container, pod);
      if (why.isPresent()) {
        return new Choice(t, why.get());
      }
    }
    return new Choice(fallback, "no type matched");
  }

  /**
   * A balloon type chosen for a container.
   *
   * @param type the type
   * @param reason why: the annotation, the namespace glob or the match expression that matched, or
   *     that none did (the default type)
   */
  public record Choice(BalloonType type, String reason) {}

  private static Optional<String> matches(BalloonType type, Container container, Pod pod) {
    for (String glob : type.namespaces()) {
      if (Glob.matches(glob, container.namespace())) {
        return Optional.of("namespace " + container.namespace() + " matches \"" + glob + "\"");
      }
    }
    for (Expression e : type.matchExpressions()) {
      if (e.evaluate(container, pod)) {
        return Optional.of("match expression " + e);
      }
    }
    return Optional.empty();
  }

  private String known() {
    return "the types are "
        + searchOrder.stream().map(BalloonType::name).collect(Collectors.joining(", "));
  }
}
