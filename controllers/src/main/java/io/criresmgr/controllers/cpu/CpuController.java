package io.criresmgr.controllers.cpu;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.CpuClassesListener;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code cpu} controller: writes the cpufreq and uncore limits of the CPU classes the active
 * policy assigns (balloons' {@code CPUClass} and {@code IdleCPUClass}), as defined in the {@code
 * cpu} section. No per-container hooks: it acts when it starts, when the section changes and when
 * the policy's classes change. Without a {@code cpu} section it does nothing. It restores nothing
 * when stopped: the limits stay as last written.
 */
public final class CpuController implements Controller, CpuClassesListener {
  /** The controller's name. */
  public static final String NAME = "cpu";

  private static final Logger LOG = LoggerFactory.getLogger(CpuController.class);

  private final SysfsIo io;
  private final Set<String> warnedUnknown = new HashSet<>();
  private CpuConfig config = CpuConfig.EMPTY;
  private @Nullable CpuClassEnforcer enforcer;

  /** A controller writing to the host's files. */
  public CpuController() {
    this(SysfsIo.FILES);
  }

  /** A controller using {@code io} for sysfs files. */
  CpuController(SysfsIo io) {
    this.io = Objects.requireNonNull(io, "io");
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Parses the {@code cpu} section and applies the node's current CPU classes; without the section
   * the controller stays inert. Failing writes are logged, the controller keeps running.
   *
   * @throws ControllerException if the section is invalid or sets limits the host cannot set (no
   *     cpufreq driver, no uncore frequency driver)
   */
  @Override
  public void start(ControllerContext context) {
    configure(context);
  }

  /**
   * Like {@link #start} if the {@code cpu} section changed: the new section replaces the old one
   * and the node's classes are applied again. An unchanged section changes nothing.
   */
  @Override
  public void reconfigure(ControllerContext context) {
    @Nullable CpuConfig next =
        context.section(CpuConfig.SECTION).map(CpuConfig::parse).orElse(null);
    boolean unchanged = next == null ? enforcer == null : enforcer != null && next.equals(config);
    if (!unchanged) {
      configure(context);
    }
  }

  @Override
  public void stop() {
    enforcer = null;
    config = CpuConfig.EMPTY;
    warnedUnknown.clear();
  }

  /**
   * Applies the policy's new classes.
   *
   * @throws ControllerException naming each file that could not be written, the value and the error
   */
  @Override
  public void cpuClassesChanged(Map<String, CpuSet> classes) {
    CpuClassEnforcer current = enforcer;
    if (current != null) {
      apply(current, classes);
    }
  }

  private void configure(ControllerContext context) {
    @Nullable CpuConfig next =
        context.section(CpuConfig.SECTION).map(CpuConfig::parse).orElse(null);
    if (next == null) {
      stop();
      return;
    }
    CpuSysfs sysfs = new CpuSysfs(context.hostRootOrSlash(), io);
    checkSupport(next, sysfs);
    config = next;
    CpuClassEnforcer fresh = new CpuClassEnforcer(sysfs);
    enforcer = fresh;
    warnedUnknown.clear();
    reportUnenforced(next);
    try {
      apply(fresh, context.node().cpuClasses());
    } catch (ControllerException e) {
      LOG.warn("controller cpu cannot apply CPU classes: {}", e.getMessage());
    }
  }

  private void apply(CpuClassEnforcer target, Map<String, CpuSet> classes) {
    Map<String, CpuSet> known = new TreeMap<>();
    classes.forEach(
        (name, cpus) -> {
          if (config.find(name).isPresent()) {
            known.put(name, cpus);
          } else if (warnedUnknown.add(name)) {
            LOG.warn(
                "non-existent cpu class \"{}\": the policy puts CPUs {} in it but section cpu"
                    + " defines only {}; they are left alone",
                name,
                cpus,
                config.classes().keySet());
          }
        });
    int written = target.apply(config, known);
    LOG.debug("CPU classes {} applied, {} files written", known, written);
  }

  private static void checkSupport(CpuConfig config, CpuSysfs sysfs) {
    if (config.setsFrequency() && !sysfs.hasCpufreq()) {
      throw new ControllerException("cpufreq is not available: no " + sysfs.cpufreqPattern());
    }
    if (config.setsUncore() && !Files.isDirectory(sysfs.uncoreRoot())) {
      throw new ControllerException(
          "uncore frequency control is not available: "
              + sysfs.uncoreRoot()
              + " does not exist (is the intel_uncore_frequency driver loaded?)");
    }
  }

  private static void reportUnenforced(CpuConfig config) {
    config.classes().values().stream()
        .filter(c -> c.energyPerformancePreference() != 0)
        .forEach(
            c ->
                LOG.info(
                    "cpu class {}: energyPerformancePreference {} is not enforced",
                    c.name(),
                    c.energyPerformancePreference()));
  }
}
