package io.criresmgr.controllers.memtierd;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One memtierd class.
 *
 * @param name the class name, matched exactly against {@code class.memtierd.nri.io} values
 * @param allowSwap {@code true}: {@code memory.swap.max=max}; {@code false}: {@code
 *     memory.swap.max=0}; {@code null}: swap is not touched
 * @param memtierdConfig the memtierd configuration template; empty: no memtierd process
 */
public record MemtierdClass(String name, @Nullable Boolean allowSwap, String memtierdConfig) {
  /** Rejects an empty name. */
  public MemtierdClass {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(memtierdConfig, "memtierdConfig");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("class name must not be empty");
    }
  }

  /** Whether containers of this class get a memtierd process. */
  public boolean runsMemtierd() {
    return !memtierdConfig.isEmpty();
  }
}
