package io.criresmgr.controllers.memtierd;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.NodeView;
import io.criresmgr.controllers.PodWarnings;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code memtierd} controller: the nri-plugins memtierd plugin's behaviour. Without a {@code
 * memtierd} section it does nothing. With one it needs cgroup v2; it claims {@code memory.swap.max}
 * / {@code memory.high} for containers of a class (see {@link MemtierdChoice}) and runs one
 * memtierd per running container whose class has a {@code memtierdconfig}.
 *
 * <p>memtierd processes outlive the daemon: the daemon does not stop its controllers when it exits,
 * and {@link #start} adopts the processes of a previous daemon, starts those missing and stops
 * those of containers that are gone. {@link #stop} (the configuration disables the controller) and
 * {@link #reconfigure} without a section stop them all. Confined to the pipeline thread; starting
 * memtierd forks and returns without waiting for it.
 */
public final class MemtierdController implements Controller {
  /** The controller name. */
  public static final String NAME = "memtierd";

  private static final Logger LOG = LoggerFactory.getLogger(MemtierdController.class);

  /** Cache id to the managed container: postStop must work when the pod left the cache. */
  private final Map<String, MemtierdContainer> managed = new HashMap<>();

  private final PodWarnings warnings = new PodWarnings(LOG, "memtierd:");
  private NodeView node = NodeView.EMPTY;
  private @Nullable MemtierdSetup setup;
  private ControllerContext last =
      new ControllerContext(java.nio.file.Path.of(""), java.nio.file.Path.of(""), Map.of());

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Without a {@code memtierd} section: inert. With one: checks for cgroup v2 (and the binary, if a
   * class runs memtierd), then adopts, starts and stops memtierd processes so that exactly the
   * running containers of {@code context.node()} whose class has a template have one.
   *
   * @throws ControllerException if the section is invalid, the host has no cgroup v2 hierarchy or
   *     the binary is not found
   */
  @Override
  public void start(ControllerContext context) {
    Optional<MemtierdConfig> config = MemtierdSetup.configOf(context);
    MemtierdSetup next = config.map(c -> MemtierdSetup.of(c, context, null)).orElse(null);
    node = context.node();
    setup = next;
    last = context;
    if (next == null) {
      MemtierdLeftovers.release(context); // an earlier run's processes have no controller now
      return;
    }
    MemtierdLeftovers.note(context, next.config());
    bringInLine(next);
  }

  /** Stops what an earlier daemon's memtierd controller left running (see {@link #start}). */
  @Override
  public void cleanUp(ControllerContext context) {
    MemtierdLeftovers.release(context);
  }

  /**
   * Takes a changed section: without one, stops every memtierd; with another binary or run dir,
   * stops them and starts them anew; otherwise stops those of containers whose class lost its
   * template and restarts those whose rendered configuration changed. An unchanged section returns
   * at once.
   *
   * @throws ControllerException as {@link #start}, before anything changed
   */
  @Override
  public void reconfigure(ControllerContext context) {
    node = context.node();
    MemtierdSetup previous = setup;
    Optional<MemtierdConfig> config = MemtierdSetup.configOf(context);
    if (config.equals(Optional.ofNullable(previous).map(MemtierdSetup::config))) {
      return;
    }
    MemtierdSetup next = config.map(c -> MemtierdSetup.of(c, context, previous)).orElse(null);
    if (previous != null && (next == null || previous.otherProcesses(next))) {
      stopAll(previous);
    }
    setup = next;
    last = context;
    if (next == null) {
      MemtierdLeftovers.forget(context);
      return;
    }
    MemtierdLeftovers.note(context, next.config());
    bringInLine(next);
  }

  /**
   * Stops every memtierd this controller manages or finds in its run dir. The daemon calls this
   * only when the configuration disables the controller, never when it exits.
   */
  @Override
  public void stop() {
    if (setup != null) {
      stopAll(setup);
      MemtierdLeftovers.forget(last);
    }
    setup = null;
    node = NodeView.EMPTY;
    warnings.clear();
  }

  /** Claims the class's and the annotations' cgroup v2 files; an unknown class is an error. */
  @Override
  public void preCreate(Container container, ContainerEdits edits) {
    MemtierdSetup s = setup;
    Optional<Pod> pod = node.pod(container.podId());
    if (s != null && pod.isPresent()) {
      claim(choice(s, pod.get(), container), edits);
    }
  }

  /**
   * Claims the same files as {@link #preCreate}, so that an update that carries them (kubelet's
   * swap settings) gets memtierd's values or a conflict. A class removed from the configuration
   * since is only warned about: the update is not the place to reject the container.
   */
  @Override
  public void preUpdate(Container container, ContainerEdits edits) {
    MemtierdSetup s = setup;
    Optional<Pod> pod = node.pod(container.podId());
    if (s == null || pod.isEmpty()) {
      return;
    }
    MemtierdChoice choice;
    try {
      choice = choice(s, pod.get(), container);
    } catch (ControllerException e) {
      warnings.warn(pod.get(), List.of(container.name() + ": " + e.getMessage()));
      return;
    }
    claim(choice, edits);
  }

  /** Starts memtierd if the container's class has a template. */
  @Override
  public void postStart(Container container) {
    MemtierdSetup s = setup;
    if (s != null) {
      align(s, container, true);
    }
  }

  /**
   * Starts memtierd for a running container of a class with a template that has none (the container
   * was adopted from the runtime after a restart); quick for every other container.
   */
  @Override
  public void postUpdate(Container container) {
    MemtierdSetup s = setup;
    if (s != null
        && container.state() == ContainerState.RUNNING
        && !managed.containsKey(container.cacheId())) {
      align(s, container, true);
    }
  }

  /** Stops the container's memtierd and removes its directory. */
  @Override
  public void postStop(Container container) {
    MemtierdSetup s = setup;
    if (s != null) {
      stopManaged(s, container.cacheId());
    }
    warnings.forgetGone(node);
  }

  private MemtierdChoice choice(MemtierdSetup s, Pod pod, Container container) {
    MemtierdChoice choice = MemtierdChoice.of(s.config(), pod.annotations(), container.name());
    warnings.warn(pod, choice.warnings());
    return choice;
  }

  private static void claim(MemtierdChoice choice, ContainerEdits edits) {
    edits.claimUnified(NAME, choice.unified());
  }

  /** Brings every active container in line, then stops every other memtierd in the run dir. */
  private void bringInLine(MemtierdSetup s) {
    Set<String> active = new HashSet<>();
    for (Container c : node.activeContainers()) {
      active.add(c.cacheId());
      try {
        align(s, c, c.state() == ContainerState.RUNNING);
      } catch (RuntimeException e) {
        LOG.warn("memtierd of container {}: {}", c.cacheId(), message(e));
      }
    }
    for (String cacheId : List.copyOf(managed.keySet())) {
      if (!active.contains(cacheId)) {
        stopManaged(s, cacheId);
      }
    }
    s.processes().reconcile(List.copyOf(managed.values()));
  }

  /**
   * Makes {@code c}'s memtierd match its class: none without a template, else the running one if
   * its configuration is current, else (if {@code startMissing}) a new one.
   */
  private void align(MemtierdSetup s, Container c, boolean startMissing) {
    Pod pod = node.pod(c.podId()).orElse(null);
    Optional<String> template = pod == null ? Optional.empty() : template(s, pod, c);
    if (pod == null || template.isEmpty()) {
      stopManaged(s, c.cacheId());
      return;
    }
    MemtierdContainer mc = MemtierdSetup.containerOf(pod, c);
    String cgroupDir = s.cgroupDir(pod, c);
    if (current(s, mc, template.get(), cgroupDir)) {
      managed.put(c.cacheId(), mc);
    } else if (startMissing) {
      s.processes().start(mc, template.get(), cgroupDir);
      managed.put(c.cacheId(), mc);
    }
  }

  /** The template of {@code c}'s class; empty if it has none, or an unknown one (warned). */
  private Optional<String> template(MemtierdSetup s, Pod pod, Container c) {
    try {
      return MemtierdChoice.of(s.config(), pod.annotations(), c.name())
          .chosenClass()
          .filter(MemtierdClass::runsMemtierd)
          .map(MemtierdClass::memtierdConfig);
    } catch (ControllerException e) {
      warnings.warn(pod, List.of(c.name() + ": " + e.getMessage()));
      return Optional.empty();
    }
  }

  /**
   * Whether {@code mc} has a running memtierd with this configuration; one with another
   * configuration is stopped.
   */
  private boolean current(MemtierdSetup s, MemtierdContainer mc, String template, String dir) {
    MemtierdProcesses processes = s.processes();
    if (processes.adopt(mc).isEmpty()) {
      return false;
    }
    MemtierdFiles files = processes.files(mc);
    if (MemtierdTemplate.render(template, dir, files).equals(read(files))) {
      return true;
    }
    LOG.info("memtierd configuration of {} changed, restarting memtierd", mc);
    processes.stop(mc);
    managed.values().remove(mc);
    return false;
  }

  private static String read(MemtierdFiles files) {
    try {
      return MemtierdFileOps.readSmall(files.config());
    } catch (IOException e) {
      return "";
    }
  }

  private void stopManaged(MemtierdSetup s, String cacheId) {
    MemtierdContainer mc = managed.remove(cacheId);
    if (mc != null) {
      s.processes().stop(mc);
    }
  }

  private void stopAll(MemtierdSetup s) {
    for (MemtierdContainer mc : managed.values()) {
      s.processes().stop(mc);
    }
    managed.clear();
    s.processes().reconcile(List.of());
  }

  private static String message(RuntimeException e) {
    return e instanceof ControllerException ? String.valueOf(e.getMessage()) : e.toString();
  }
}
