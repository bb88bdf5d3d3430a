package io.criresmgr.proxy.log;

import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.KlogFlag;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The environment variables of cri-resmgr (Go) that set klog defaults: {@code LOGGER_<FLAG>} (e.g.
 * {@code LOGGER_SKIP_HEADERS=true}), and {@code JOURNAL_STREAM}, set by systemd when stderr is the
 * journal, which turns {@code skip_headers} on unless {@code LOGGER_SKIP_HEADERS} says otherwise.
 * Other {@code LOGGER_} variables than these and {@code LOGGER_DEBUG} are noted as ignored.
 */
public final class KlogEnvironment {
  /** Set by systemd when stderr is connected to the journal. */
  public static final String JOURNAL_STREAM = "JOURNAL_STREAM";

  private KlogEnvironment() {}

  /**
   * klog's defaults overridden by {@code env}. Throws {@link ConfigException} naming the variable,
   * its value and what is allowed if a value is malformed.
   */
  public static KlogSettings read(Map<String, String> env) {
    KlogSettings s = KlogSettings.defaults();
    for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
      if (e.getKey().startsWith(KlogFlag.ENV_PREFIX) && !e.getKey().equals(LogControl.ENV)) {
        s = withVariable(s, e.getKey(), e.getValue());
      }
    }
    String journal = env.get(JOURNAL_STREAM);
    if (journal != null
        && !journal.isEmpty()
        && !env.containsKey(KlogFlag.SKIP_HEADERS.envName())) {
      s = s.with(KlogFlag.SKIP_HEADERS, "true", JOURNAL_STREAM);
    }
    return s;
  }

  private static KlogSettings withVariable(KlogSettings s, String name, String value) {
    for (KlogFlag flag : KlogFlag.values()) {
      if (flag.envName().equals(name)) {
        try {
          return s.with(flag, value, name);
        } catch (IllegalArgumentException e) {
          throw new ConfigException(Objects.requireNonNullElse(e.getMessage(), e.toString()), e);
        }
      }
    }
    return s.withNote(
        name
            + "="
            + value
            + " (unknown variable: cri-resmgr reads LOGGER_DEBUG and LOGGER_<klog flag>, e.g."
            + " LOGGER_SKIP_HEADERS)");
  }
}
