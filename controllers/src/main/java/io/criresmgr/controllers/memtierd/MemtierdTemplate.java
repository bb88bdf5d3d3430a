package io.criresmgr.controllers.memtierd;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Renders a class's memtierd configuration template for one container. */
public final class MemtierdTemplate {
  /** Replaced by the container's absolute cgroup v2 directory. */
  public static final String CGROUP2_ABS_PATH = "$CGROUP2_ABS_PATH";

  /** Replaced by the container's {@link MemtierdFiles#stats()} file. */
  public static final String MEMTIERD_SWAP_STATS_PATH = "$MEMTIERD_SWAP_STATS_PATH";

  private static final Pattern VARIABLES =
      Pattern.compile(
          Pattern.quote(CGROUP2_ABS_PATH) + "|" + Pattern.quote(MEMTIERD_SWAP_STATS_PATH));

  private MemtierdTemplate() {}

  /**
   * {@code template} with every occurrence of {@link #CGROUP2_ABS_PATH} replaced by {@code
   * cgroupDir} and of {@link #MEMTIERD_SWAP_STATS_PATH} by {@code files.stats()}, literally (no
   * other {@code $} expansion, no quoting), as the original plugin's {@code strings.ReplaceAll}.
   * One pass, so a substituted value is never substituted again.
   */
  public static String render(String template, String cgroupDir, MemtierdFiles files) {
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(cgroupDir, "cgroupDir");
    String stats = files.stats().toString();
    return VARIABLES
        .matcher(template)
        .replaceAll(
            m -> Matcher.quoteReplacement(m.group().equals(CGROUP2_ABS_PATH) ? cgroupDir : stats));
  }
}
