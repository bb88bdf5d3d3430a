package io.criresmgr.proxy.log;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The log sources of cri-resmgr and the SLF4J logger names (packages) each one stands for. This is
 * the one place that maps them; a module adding a package with its own source adds a line here.
 */
public final class LogSources {
  /** The logger that debug for every source ({@code *}) also switches, so new packages follow. */
  public static final String ROOT = "io.criresmgr";

  /** The logger the message dumper writes CRI messages to. */
  public static final String MESSAGE_LOGGER = "message";

  private static final Map<String, List<String>> LOGGERS = sources();

  private LogSources() {}

  private static Map<String, List<String>> sources() {
    Map<String, List<String>> m = new LinkedHashMap<>();
    m.put("resource-manager", List.of("io.criresmgr.proxy"));
    m.put("relay", List.of("io.criresmgr.proxy.relay"));
    m.put("cri/relay", List.of("io.criresmgr.proxy.relay"));
    m.put("dump", List.of("io.criresmgr.proxy.dump"));
    m.put("message", List.of(MESSAGE_LOGGER));
    m.put("config", List.of("io.criresmgr.proxy.config"));
    m.put("metrics", List.of("io.criresmgr.proxy.metrics"));
    m.put("instrumentation", List.of("io.criresmgr.proxy.metrics"));
    m.put("sim-runtime", List.of("io.criresmgr.sim"));
    m.put("cache", List.of("io.criresmgr.cache"));
    m.put("policy", List.of("io.criresmgr.policy"));
    m.put("resource-control", List.of("io.criresmgr.controllers"));
    m.put("controllers", List.of("io.criresmgr.controllers"));
    return Map.copyOf(m);
  }

  /** Every source name, sorted. */
  public static List<String> names() {
    return LOGGERS.keySet().stream().sorted().toList();
  }

  /** The loggers of {@code source}; empty if the source is unknown. */
  public static List<String> loggersOf(String source) {
    return LOGGERS.getOrDefault(source, List.of());
  }

  /** Every logger any source stands for, plus {@link #ROOT}. */
  public static Set<String> allLoggers() {
    Set<String> all = new LinkedHashSet<>();
    all.add(ROOT);
    LOGGERS.values().forEach(all::addAll);
    return all;
  }
}
