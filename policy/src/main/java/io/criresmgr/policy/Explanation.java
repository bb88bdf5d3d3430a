package io.criresmgr.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Why a policy placed a container where it did, or why it refused it: a one-line summary and the
 * best few candidates it considered (pools, balloons) with their scores and verdicts. Small and
 * immutable: at most {@link #MAX_CANDIDATES} candidates, so a node of thousands of CPUs keeps it
 * short. Shown on {@code /introspect}, the live view and {@code cri-resmgr show --why}
 * (docs/ui.md).
 *
 * @param summary one line: where, and the rule that decided (or, for a refusal, what was lacking)
 * @param candidates the best candidates considered, best first; at most {@link #MAX_CANDIDATES}
 */
public record Explanation(String summary, List<Candidate> candidates) {
  /** The most candidates an explanation keeps. */
  public static final int MAX_CANDIDATES = 5;

  /** Checks for nulls; keeps the first {@link #MAX_CANDIDATES} candidates. */
  public Explanation {
    Objects.requireNonNull(summary, "summary");
    candidates = List.copyOf(candidates.subList(0, Math.min(candidates.size(), MAX_CANDIDATES)));
  }

  /** Only a summary, no candidates (template, none). */
  public static Explanation of(String summary) {
    return new Explanation(summary, List.of());
  }

  /** The summary, then a line per candidate ({@code " name: score: verdict"}). */
  public List<String> lines() {
    List<String> out = new ArrayList<>(candidates.size() + 1);
    out.add(summary);
    candidates.forEach(c -> out.add("  " + c));
    return out;
  }

  /**
   * One candidate considered.
   *
   * @param name the pool or balloon
   * @param score its measures for the request, as text (e.g. {@code "shared 1500m left"})
   * @param verdict {@code "chosen"}, or why it was not
   */
  public record Candidate(String name, String score, String verdict) {
    /** Checks for nulls. */
    public Candidate {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(score, "score");
      Objects.requireNonNull(verdict, "verdict");
    }

    @Override
    public String toString() {
      return name + ": " + score + ": " + verdict;
    }
  }
}
