package io.criresmgr.policy.topologyaware;

import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.Explanation.Candidate;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Explains a pool choice ({@link PoolSelector}) for operators: the chosen pool and the rule that
 * put it ahead of the runner-up, the best few candidates with their capacity left and verdict, and
 * for a refusal the closest pool and what it lacked. Built once per decision from the scores the
 * choice computed anyway; at most {@link Explanation#MAX_CANDIDATES} candidates are ranked.
 */
final class PoolExplanation {
  private PoolExplanation() {}

  /** {@code best} was chosen among {@code candidates}. */
  static Explanation chosen(PoolScore best, List<PoolScore> candidates, CpuRequest r) {
    List<PoolScore> top = top(best, candidates, r);
    String why =
        top.size() == 1
            ? "the only pool with enough memory"
            : PoolSelector.rule(PoolSelector.ranked(best, top.get(1), r))
                + " (runner-up "
                + top.get(1).pool().name()
                + ")";
    return new Explanation("pool " + best.pool().name() + ": " + why, candidates(top, r, false));
  }

  /** {@code hinted}, the pool the container had, was kept. */
  static Explanation kept(PoolScore hinted, CpuRequest r) {
    return new Explanation(
        "pool " + hinted.pool().name() + ": kept, the container's pool before",
        List.of(new Candidate(hinted.pool().name(), score(hinted, r), "chosen")));
  }

  /** A request placed in the root without scoring, for {@code reason}. */
  static Explanation root(PoolTree tree, String reason) {
    return Explanation.of("pool " + tree.root().name() + ": " + reason);
  }

  /**
   * A refusal: {@code what} failed; {@code best} is the best scored pool, null when none had enough
   * memory. When it lacks capacity, the closest pool is the one lacking least (which the policy's
   * order, preferring deeper pools, need not rank first).
   */
  static Explanation refused(
      String what, @Nullable PoolScore best, List<PoolScore> candidates, CpuRequest r) {
    if (best == null) {
      return Explanation.of("refused: " + what);
    }
    PoolScore closest = best;
    if (!PoolSelector.sufficient(best, r)) {
      for (PoolScore s : candidates) {
        if (room(s, r) > room(closest, r)) {
          closest = s;
        }
      }
    }
    List<PoolScore> top = top(closest, candidates, r);
    return new Explanation(
        "refused: " + what + "; closest pool " + closest.pool().name() + " " + lack(closest, r),
        candidates(top, r, true));
  }

  private static List<Candidate> candidates(List<PoolScore> top, CpuRequest r, boolean refused) {
    List<Candidate> out = new ArrayList<>(top.size());
    PoolScore best = top.get(0);
    for (int i = 0; i < top.size(); i++) {
      PoolScore s = top.get(i);
      String verdict =
          !PoolSelector.sufficient(s, r)
              ? "no room: " + lack(s, r)
              : i == 0
                  ? (refused ? "closest" : "chosen")
                  : "lost: " + PoolSelector.rule(PoolSelector.ranked(best, s, r));
      out.add(new Candidate(s.pool().name(), score(s, r), verdict));
    }
    return out;
  }

  /** {@code best}, then the best others, at most {@link Explanation#MAX_CANDIDATES} in all. */
  private static List<PoolScore> top(PoolScore best, List<PoolScore> candidates, CpuRequest r) {
    int n = Explanation.MAX_CANDIDATES;
    List<PoolScore> out = new ArrayList<>(n);
    out.add(best);
    for (PoolScore s : candidates) {
      if (s.pool().id() == best.pool().id()) {
        continue;
      }
      int i = out.size();
      while (i > 1 && PoolSelector.compare(s, out.get(i - 1), r) < 0) {
        i--;
      }
      if (i < n) {
        out.add(i, s);
        if (out.size() > n) {
          out.remove(n);
        }
      }
    }
    return out;
  }

  /** The pool's capacity left after the request, as text. */
  static String score(PoolScore s, CpuRequest r) {
    if (r.kind() == CpuKind.RESERVED) {
      return "reserved " + s.reserved() + "m left, " + s.colocated() + " containers";
    }
    StringBuilder b = new StringBuilder();
    b.append("shared ").append(s.shared()).append("m left");
    if (r.isolate()) {
      b.append(", isolated ").append(s.isolated()).append(" left");
    }
    b.append(", ").append(s.colocated()).append(" containers");
    if (s.affinity() != 0) {
      b.append(", affinity ").append(s.affinity());
    }
    return b.toString();
  }

  /** The capacity left after the request in milli-CPUs: negative when the pool lacks some. */
  private static long room(PoolScore s, CpuRequest r) {
    if (r.kind() == CpuKind.RESERVED) {
      return s.reserved();
    }
    return s.isolated() < 0 ? s.isolated() * 1000 : s.shared();
  }

  /** What the pool lacks for the request, or that it has room. */
  static String lack(PoolScore s, CpuRequest r) {
    if (r.kind() == CpuKind.RESERVED) {
      return s.reserved() < 0 ? "lacks " + -s.reserved() + "m of reserved CPU" : "has room";
    }
    if (s.isolated() < 0) {
      return "lacks " + -s.isolated() + " isolated CPUs";
    }
    if (s.shared() < 0) {
      return "lacks " + -s.shared() + "m of shared CPU";
    }
    return s.sharedFits()
        ? "has room"
        : "cannot give up CPUs its shared containers use (shared " + s.shared() + "m left)";
  }
}
