package io.criresmgr.controllers;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controllers of the daemon in their fixed order (by name), each with its mode and whether it
 * runs. Confined to the pipeline thread.
 *
 * <p>Modes (cri-resmgr {@code control/flags.go}): {@code required} must start and its hook failures
 * fail the request; {@code optional} is dropped if it cannot start, and once running behaves like
 * {@code required}; {@code relaxed} is dropped if it cannot start and its hook failures are only
 * logged; {@code disabled} never runs. Unlisted controllers are {@code relaxed}. Why:
 * docs/adr/0005-policies-decide-controllers-enforce.md.
 */
public final class ControllerSet {
  /** Mode of controllers the configuration does not mention. */
  public static final ControllerMode DEFAULT_MODE = ControllerMode.RELAXED;

  private static final Logger LOG = LoggerFactory.getLogger(ControllerSet.class);

  private final List<Controller> controllers;
  private final Map<String, ControllerMode> modes = new LinkedHashMap<>();
  private final Set<String> running = new TreeSet<>();

  /**
   * {@link #running} as an immutable set, made again when it changes: what a hook run returns when
   * every controller succeeded, so that the post-update hooks of the hundreds of containers one
   * decision re-assigns make no set each (docs/benchmarks.md, "Issue 20: re-assigned containers").
   */
  private volatile Set<String> runningNow = Set.of();

  private @Nullable ControllerContext applied;

  /** The given controllers, sorted by name; duplicate names are rejected. */
  public ControllerSet(List<? extends Controller> controllers) {
    List<Controller> sorted = new ArrayList<>(controllers);
    sorted.sort(Comparator.comparing(Controller::name));
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).name().equals(sorted.get(i - 1).name())) {
        throw new IllegalArgumentException(
            "duplicate controller name \"" + sorted.get(i).name() + "\"");
      }
    }
    this.controllers = List.copyOf(sorted);
  }

  /** Controller names in hook order. */
  public List<String> names() {
    return controllers.stream().map(Controller::name).toList();
  }

  /** Names of the running controllers. */
  public Set<String> running() {
    return runningNow;
  }

  /**
   * Starts and stops controllers to match {@code configured} (name to mode) and gives running
   * controllers the context's sections if they changed; unknown names are rejected. Required
   * controllers are started and running ones reconfigured first, so that a failure changes nothing:
   * those this call started are stopped again and those it reconfigured get the previous context
   * back. A relaxed controller that refuses the new sections is stopped and started again with them
   * (which reports why it cannot work, once), as at start-up; it does not refuse them.
   *
   * @throws ControllerException if a name is unknown, a required controller cannot start, or a
   *     running controller refuses the new sections
   */
  public void configure(Map<String, ControllerMode> configured, ControllerContext context) {
    for (String name : new TreeSet<>(configured.keySet())) {
      if (!names().contains(name)) {
        throw new ControllerException(
            "resource-manager.control.Controllers: unknown controller \""
                + name
                + "\", expected one of "
                + (controllers.isEmpty() ? "(no controllers)" : String.join(", ", names())));
      }
    }
    List<Controller> started = startRequired(configured, context);
    try {
      reconfigureRunning(configured, context, started);
    } catch (RuntimeException e) {
      for (int i = started.size() - 1; i >= 0; i--) {
        stop(started.get(i));
      }
      throw e;
    }
    for (Controller c : controllers) {
      apply(c, configured.getOrDefault(c.name(), DEFAULT_MODE), context);
    }
    applied = context;
  }

  private void reconfigureRunning(
      Map<String, ControllerMode> configured, ControllerContext context, List<Controller> fresh) {
    ControllerContext previous = applied;
    if (previous == null || previous.sections().equals(context.sections())) {
      return;
    }
    List<Controller> done = new ArrayList<>();
    for (Controller c : controllers) {
      ControllerMode mode = configured.getOrDefault(c.name(), DEFAULT_MODE);
      if (!running.contains(c.name()) || fresh.contains(c) || mode == ControllerMode.DISABLED) {
        continue;
      }
      try {
        c.reconfigure(context);
        done.add(c);
      } catch (RuntimeException e) {
        if (mode == ControllerMode.RELAXED) {
          // As at start-up: a relaxed controller that cannot work is off, the rest goes on. The
          // start attempt that follows reports why, once.
          stop(c);
          continue;
        }
        for (int i = done.size() - 1; i >= 0; i--) {
          restore(done.get(i), previous);
        }
        restore(c, previous);
        throw new ControllerException(
            "controller " + c.name() + " refuses the configuration: " + message(e), e);
      }
    }
  }

  /** Gives {@code c} its previous context back; it ran with it, so failing now is only logged. */
  private static void restore(Controller c, ControllerContext previous) {
    try {
      c.reconfigure(previous);
    } catch (RuntimeException e) {
      LOG.warn("controller {} cannot go back to its previous configuration: {}", c.name(), e);
    }
  }

  private List<Controller> startRequired(
      Map<String, ControllerMode> configured, ControllerContext context) {
    List<Controller> started = new ArrayList<>();
    for (Controller c : controllers) {
      ControllerMode mode = configured.getOrDefault(c.name(), DEFAULT_MODE);
      if (mode != ControllerMode.REQUIRED || running.contains(c.name())) {
        continue;
      }
      try {
        start(c, context);
        started.add(c);
      } catch (RuntimeException e) {
        for (int i = started.size() - 1; i >= 0; i--) {
          stop(started.get(i));
        }
        throw new ControllerException(
            "required controller " + c.name() + " cannot start: " + message(e), e);
      }
    }
    return started;
  }

  private void apply(Controller c, ControllerMode mode, ControllerContext context) {
    ControllerMode old = modes.put(c.name(), mode);
    boolean wasRunning = running.contains(c.name());
    if (mode == ControllerMode.DISABLED) {
      stop(c);
      cleanUp(c, context);
    } else if (!wasRunning) {
      try {
        start(c, context);
      } catch (RuntimeException e) {
        LOG.warn("controller {} cannot start, disabled ({} mode): {}", c.name(), mode, message(e));
        cleanUp(c, context);
        return;
      }
    }
    if (old != mode || wasRunning != running.contains(c.name())) {
      LOG.info(
          "controller {} is now {}, mode {}",
          c.name(),
          running.contains(c.name()) ? "running" : "stopped",
          mode);
    }
  }

  private void start(Controller c, ControllerContext context) {
    c.start(context);
    running.add(c.name());
    runningNow = Set.copyOf(running);
  }

  private static void cleanUp(Controller c, ControllerContext context) {
    try {
      c.cleanUp(context);
    } catch (RuntimeException e) {
      LOG.warn("controller {} cannot release what an earlier run left: {}", c.name(), message(e));
    }
  }

  /** Stops {@code c} if it runs; a failure to stop is logged, the controller counts as stopped. */
  private void stop(Controller c) {
    if (!running.remove(c.name())) {
      return;
    }
    runningNow = Set.copyOf(running);
    try {
      c.stop();
    } catch (RuntimeException e) {
      LOG.warn("controller {} failed to stop: {}", c.name(), message(e));
    }
  }

  private static String message(RuntimeException e) {
    return e instanceof ControllerException ? String.valueOf(e.getMessage()) : e.toString();
  }

  /** Stops every running controller. */
  public void stopAll() {
    for (Controller c : controllers) {
      stop(c);
    }
  }

  /** Runs every running controller's pre-create hook; see {@link #run}. */
  public Set<String> preCreate(Container container, ContainerEdits edits) {
    return run(container, "pre-create", c -> c.preCreate(container, edits));
  }

  /** Runs every running controller's pre-update hook; see {@link #run}. */
  public Set<String> preUpdate(Container container, ContainerEdits edits) {
    return run(container, "pre-update", c -> c.preUpdate(container, edits));
  }

  /**
   * Tells every running {@link CpuClassesListener} that the policy's CPU classes changed. Failures
   * are logged whatever the mode: no request waits for this.
   */
  public void cpuClassesChanged(Map<String, CpuSet> classes) {
    for (Controller c : controllers) {
      if (running.contains(c.name()) && c instanceof CpuClassesListener listener) {
        try {
          listener.cpuClassesChanged(classes);
        } catch (RuntimeException e) {
          LOG.warn("controller {} cannot apply CPU classes: {}", c.name(), message(e));
        }
      }
    }
  }

  /** Runs every running controller's post-start hook; see {@link #run}. */
  public Set<String> postStart(Container container) {
    return run(container, "post-start", c -> c.postStart(container));
  }

  /** Runs every running controller's post-update hook; see {@link #run}. */
  public Set<String> postUpdate(Container container) {
    return run(container, "post-update", c -> c.postUpdate(container));
  }

  /** Runs every running controller's post-stop hook; see {@link #run}. */
  public Set<String> postStop(Container container) {
    return run(container, "post-stop", c -> c.postStop(container));
  }

  /**
   * Runs a hook of every running controller in order and returns the names of those that succeeded
   * (an unmodifiable set). A relaxed controller's failure (any exception) is logged and the run
   * continues; a required or optional one's failure stops the run and is thrown as a {@link
   * ControllerException} naming the controller and the hook.
   */
  private Set<String> run(Container container, String hook, Consumer<Controller> action) {
    Set<String> ran = runningNow;
    // made only once one failed: until then every controller that ran succeeded
    @Nullable Set<String> failed = null;
    for (Controller c : controllers) {
      if (!ran.contains(c.name())) {
        continue;
      }
      try {
        action.accept(c);
      } catch (RuntimeException e) {
        if (failed == null) {
          failed = new TreeSet<>();
        }
        failed.add(c.name());
        if (modes.getOrDefault(c.name(), DEFAULT_MODE) != ControllerMode.RELAXED) {
          throw new ControllerException(
              "controller " + c.name() + " (" + hook + "): " + message(e), e);
        }
        LOG.warn(
            "{} hook of controller {} failed for {}: {}",
            hook,
            c.name(),
            container.cacheId(),
            message(e));
      }
    }
    if (failed == null) {
      return ran;
    }
    Set<String> succeeded = new TreeSet<>(ran);
    succeeded.removeAll(failed);
    return Set.copyOf(succeeded); // unmodifiable, as ran is
  }
}
