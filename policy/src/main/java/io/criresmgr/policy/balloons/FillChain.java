package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Container;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.PolicyException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the balloon instance of a type for a container (cri-resmgr's {@code
 * allocateBalloonOfDef}): the methods {@code same-group} (nri-plugins' {@code groupBy}), {@code
 * same-pod}, {@code same-namespace}, {@code new-balloon}, {@code balanced} and {@code
 * balanced-inflate}, in the order the type's preferences give, the first that finds an instance
 * wins.
 */
final class FillChain {
  /** One method of the chain. */
  enum Method {
    SAME_GROUP,
    SAME_POD,
    SAME_NAMESPACE,
    NEW_BALLOON,
    BALANCED,
    BALANCED_INFLATE;

    /** The method's name as the balloon type's preferences spell it ({@code same-pod}). */
    String label() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * The instance found and the method that found it.
   *
   * @param balloon the instance (a new one already added to the set)
   * @param method the method of the chain that found it; null for the reserved and default types,
   *     which have one instance
   */
  record Found(Balloon balloon, @Nullable Method method) {}

  private FillChain() {}

  /** The methods {@code type} tries, in order. */
  static List<Method> methods(BalloonType type) {
    List<Method> out = new ArrayList<>();
    if (type.groupBy().enabled()) {
      out.add(Method.SAME_GROUP);
    }
    if (!type.preferSpreadingPods()) {
      out.add(Method.SAME_POD);
    }
    if (type.preferPerNamespaceBalloon()) {
      out.add(Method.SAME_NAMESPACE);
      out.add(Method.NEW_BALLOON);
    }
    if (type.preferNewBalloons()) {
      out.addAll(List.of(Method.NEW_BALLOON, Method.BALANCED, Method.BALANCED_INFLATE));
    } else {
      out.addAll(List.of(Method.BALANCED, Method.BALANCED_INFLATE, Method.NEW_BALLOON));
    }
    return List.copyOf(out);
  }

  /**
   * The instance of {@code type} for {@code c} requesting {@code milli}; a new one is added to
   * {@code set}.
   *
   * @param owner the container of a cache id, if it is known
   * @param group the group of a container under the type's {@code GroupBy}, if it has one
   * @throws PolicyException naming the type and the free CPUs if no method finds one, explained
   *     with the instance closest to taking it
   */
  static Found choose(
      BalloonSet set,
      BalloonType type,
      Container c,
      long milli,
      Function<String, Optional<Container>> owner,
      Function<Container, Optional<String>> group) {
    for (Method m : methods(type)) {
      Optional<Balloon> b = find(m, set, type, c, milli, owner, group);
      if (b.isPresent()) {
        return new Found(b.get(), m);
      }
    }
    String message =
        String.format(
            "no suitable balloon instance available for %s (%d mCPU) of balloon type \"%s\":"
                + " %d instance(s) (MaxBalloons %s, MaxCPUs %s), free CPUs %s",
            c.name(),
            milli,
            type.name(),
            set.ofType(type.name()).size(),
            type.maxBalloons() == 0 ? "unlimited" : type.maxBalloons(),
            type.maxCpus() == 0 ? "unlimited" : type.maxCpus(),
            set.free().isEmpty() ? "none" : set.free());
    throw new PolicyException(message, null, refusal(set, type, milli));
  }

  /** Why no instance of {@code type} takes {@code milli}: the closest one and what it lacks. */
  private static Explanation refusal(BalloonSet set, BalloonType type, long milli) {
    List<Balloon> all = set.ofType(type.name());
    Optional<Balloon> closest = best(all.stream(), b -> maxFree(set, b));
    String what =
        "refused: no balloon of type "
            + type.name()
            + " can take "
            + milli
            + "m; free CPUs: "
            + set.free().size();
    List<Explanation.Candidate> candidates = new ArrayList<>();
    all.stream()
        .sorted(Comparator.comparingLong((Balloon b) -> maxFree(set, b)).reversed())
        .limit(Explanation.MAX_CANDIDATES)
        .forEach(
            b ->
                candidates.add(
                    new Explanation.Candidate(
                        b.name(),
                        score(set, b),
                        "no room: lacks " + (milli - maxFree(set, b)) + "m")));
    return new Explanation(
        closest
            .map(b -> what + "; closest " + b.name() + " lacks " + (milli - maxFree(set, b)) + "m")
            .orElse(what + (type.maxBalloons() > 0 ? " (MaxBalloons reached)" : "")),
        candidates);
  }

  /** {@code b}'s CPUs, request and room as text. */
  static String score(BalloonSet set, Balloon b) {
    return b.cpus().size()
        + " CPUs (at most "
        + set.maxCpus(b)
        + "), "
        + b.containers().size()
        + " containers, "
        + b.requestMilli()
        + "m requested";
  }

  private static Optional<Balloon> find(
      Method m,
      BalloonSet set,
      BalloonType type,
      Container c,
      long milli,
      Function<String, Optional<Container>> owner,
      Function<Container, Optional<String>> group) {
    List<Balloon> all = set.ofType(type.name());
    ToLongFunction<Balloon> free = FillChain::free;
    return switch (m) {
      case SAME_GROUP -> sameGroup(set, all, c, milli, owner, group);
      case SAME_POD ->
          best(
              all.stream()
                  .filter(b -> holds(b, owner, x -> x.podId().equals(c.podId())))
                  .filter(b -> maxFree(set, b) >= milli),
              free);
      case SAME_NAMESPACE ->
          best(
              all.stream()
                  .filter(b -> holds(b, owner, x -> x.namespace().equals(c.namespace())))
                  .filter(b -> maxFree(set, b) >= milli),
              free);
      case NEW_BALLOON -> newBalloon(set, type, all, milli);
      case BALANCED -> best(all.stream().filter(b -> free(b) >= milli), free);
      case BALANCED_INFLATE ->
          best(all.stream().filter(b -> maxFree(set, b) >= milli), b -> maxFree(set, b));
    };
  }

  /**
   * Of {@code candidates} (in balloon order), the one with the most {@code room}, then the fewest
   * containers, then the first (nri-plugins' {@code allocateBalloonOfDef}).
   */
  private static Optional<Balloon> best(Stream<Balloon> candidates, ToLongFunction<Balloon> room) {
    Comparator<Balloon> better =
        Comparator.comparingLong(room)
            .thenComparing(
                Comparator.comparingInt((Balloon b) -> b.containers().size()).reversed());
    // Stream.max keeps the first of equal elements.
    return candidates.max(better);
  }

  /** Of {@code all}, a balloon holding a container of {@code c}'s group that can take it. */
  private static Optional<Balloon> sameGroup(
      BalloonSet set,
      List<Balloon> all,
      Container c,
      long milli,
      Function<String, Optional<Container>> owner,
      Function<Container, Optional<String>> group) {
    Optional<String> mine = group.apply(c);
    if (mine.isEmpty()) {
      return Optional.empty();
    }
    return best(
        all.stream()
            .filter(b -> holds(b, owner, x -> group.apply(x).equals(mine)))
            .filter(b -> maxFree(set, b) >= milli),
        FillChain::free);
  }

  private static boolean holds(
      Balloon b, Function<String, Optional<Container>> owner, Predicate<Container> match) {
    // A loop, not a stream: a flatMap of Optional::stream made a stream per container of every
    // balloon looked at (docs/benchmarks.md, "Issue 20: bytes per decision").
    for (String id : b.containers().keySet()) {
      Optional<Container> c = owner.apply(id);
      if (c.isPresent() && match.test(c.get())) {
        return true;
      }
    }
    return false;
  }

  private static Optional<Balloon> newBalloon(
      BalloonSet set, BalloonType type, List<Balloon> all, long milli) {
    Optional<Balloon> unused =
        all.stream().filter(b -> b.containers().isEmpty() && maxFree(set, b) >= milli).findFirst();
    if (unused.isPresent() || type.isReserved() || type.isDefault()) {
      return unused;
    }
    int need = BalloonSet.cpusFor(milli);
    boolean fits =
        (type.maxBalloons() == 0 || all.size() < type.maxBalloons())
            && (type.maxCpus() == 0 || need <= type.maxCpus())
            && Math.max(need, type.minCpus()) <= set.free().size();
    if (!fits) {
      return Optional.empty();
    }
    try {
      return Optional.of(set.create(type, need));
    } catch (PolicyException e) {
      return Optional.empty(); // as cri-resmgr: this method just does not apply
    }
  }

  /** Milli-CPUs free in {@code b} without inflating it. */
  private static long free(Balloon b) {
    return b.cpus().size() * 1000L - b.requestMilli();
  }

  /** Milli-CPUs free in {@code b} if it inflated as far as it can. */
  private static long maxFree(BalloonSet set, Balloon b) {
    return set.maxCpus(b) * 1000L - b.requestMilli();
  }
}
