package io.criresmgr.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle shared by controllers that put each container in a class of their configuration
 * section (the {@code rdt} and {@code blockio} controllers): without the section the controller is
 * inert (it looks at nothing and changes nothing); with it, it sets the host up, applies the
 * classes and gives every active container its class at start, after a changed section, after a
 * container started and after a container's assignment changed for it. A container that is not
 * created yet is skipped; one whose pod is not cached fails. Confined to the pipeline thread.
 *
 * <p>A subclass supplies the section's parser, the host set-up for a configuration ({@link #open},
 * {@link #reopen}, {@link #close}) and the per-container step ({@link #apply}).
 *
 * @param <C> the parsed configuration section
 * @param <S> what a started controller works with for one configuration (host handles, resolved
 *     classes, the configuration itself)
 */
public abstract class ClassBasedController<C, S> implements Controller {
  private final String name;
  private final String section;
  private final String domain;
  private final Logger log = LoggerFactory.getLogger(getClass());
  private @Nullable Active<C, S> active;

  /** What a started controller runs with: the configuration, its set-up and the node. */
  private record Active<C, S>(C config, S state, NodeView node) {
    Active {
      Objects.requireNonNull(config, "config");
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(node, "node");
    }
  }

  /**
   * A controller named {@code name} reading section {@code section}.
   *
   * @param domain what it controls, in log lines (e.g. {@code RDT}: "RDT control is off", "RDT
   *     class of ... not applied")
   */
  protected ClassBasedController(String name, String section, String domain) {
    this.name = Objects.requireNonNull(name, "name");
    this.section = Objects.requireNonNull(section, "section");
    this.domain = Objects.requireNonNull(domain, "domain");
  }

  @Override
  public final String name() {
    return name;
  }

  /**
   * Without the section the controller is inert. With it the controller sets the host up for the
   * section ({@link #open}) and gives every active container its class.
   *
   * @throws ControllerException if the host lacks what the controller needs or the section does not
   *     fit it
   */
  @Override
  public void start(ControllerContext context) {
    active = null;
    if (context.section(section).isEmpty()) {
      log.debug("no {} section: {} control is off", section, domain);
      return;
    }
    C config = config(context);
    active = new Active<>(config, open(context, config), context.node());
    applyAll();
  }

  /**
   * Applies a changed section ({@link #reopen}) and gives every active container its class again;
   * an unchanged section and node change nothing. A section given to an inert controller starts it;
   * a removed one undoes the set-up ({@link #close}) and makes it inert.
   */
  @Override
  public void reconfigure(ControllerContext context) {
    Active<C, S> a = active;
    if (a == null) {
      start(context);
      return;
    }
    if (context.section(section).isEmpty()) {
      close(a.state());
      active = null;
      log.info("{} section removed: {} control is off", section, domain);
      return;
    }
    C config = config(context);
    if (config.equals(a.config()) && context.node() == a.node()) {
      return;
    }
    active = new Active<>(config, reopen(a.state(), config), context.node());
    applyAll();
  }

  @Override
  public void stop() {
    active = null;
  }

  /**
   * Lets the subclass name the container's class for the runtime to apply at creation ({@link
   * #preCreate(Object, Container, Pod, ContainerEdits)}); the class is still applied after the
   * start as without it.
   */
  @Override
  public void preCreate(Container container, ContainerEdits edits) {
    Active<C, S> a = active;
    if (a == null) {
      return;
    }
    a.node().pod(container.podId()).ifPresent(pod -> preCreate(a.state(), container, pod, edits));
  }

  /** Gives the new container its class. */
  @Override
  public void postStart(Container container) {
    if (active != null) {
      applyTo(container);
    }
  }

  /** Gives the container its class again if its assignment changed for this controller. */
  @Override
  public void postUpdate(Container container) {
    if (active != null && container.pending().contains(name)) {
      applyTo(container);
    }
  }

  /**
   * Parses the section.
   *
   * @throws ControllerException naming the path, the value and what is allowed
   */
  protected abstract C parse(JsonNode section);

  /**
   * Sets the host up for {@code config} at start: finds what the controller works with and applies
   * the classes.
   *
   * @throws ControllerException if the host lacks what the controller needs or {@code config} does
   *     not fit it
   */
  protected abstract S open(ControllerContext context, C config);

  /**
   * Applies a changed {@code config} to a started controller's set-up {@code state}.
   *
   * @throws ControllerException if {@code config} does not fit the host
   */
  protected abstract S reopen(S state, C config);

  /** The section was removed: undo what {@link #open} set up, if anything. */
  protected void close(S state) {}

  /**
   * Gives {@code container} (created, of the cached {@code pod}) its class.
   *
   * @throws ControllerException if it cannot
   */
  protected abstract void apply(S state, Container container, Pod pod);

  /**
   * Before the container is created: may set its class in {@code edits} for the runtime to apply at
   * creation (NRI mode, docs/nri.md). Must not fail the creation for a class it cannot resolve:
   * then it sets nothing, and {@link #apply} reports it after the start as always. Does nothing by
   * default.
   */
  protected void preCreate(S state, Container container, Pod pod, ContainerEdits edits) {}

  /** The controller's exception with {@code message}. */
  protected abstract ControllerException error(String message);

  private C config(ControllerContext context) {
    return parse(context.section(section).orElse(NullNode.getInstance()));
  }

  /**
   * Applies every active container; one container's failure is logged and does not stop the rest.
   */
  private void applyAll() {
    ContainerLoop.applyToEach(
        started().node().activeContainers(),
        this::applyTo,
        (c, e) -> log.warn("{} class of {} not applied: {}", domain, c.cacheId(), e.getMessage()));
  }

  private void applyTo(Container c) {
    Active<C, S> a = started();
    if (c.id().isEmpty()) {
      return; // not created yet: nothing runs, no cgroup
    }
    Pod pod =
        a.node()
            .pod(c.podId())
            .orElseThrow(
                () ->
                    error("pod " + c.podId() + " of container " + c.cacheId() + " is not cached"));
    apply(a.state(), c, pod);
  }

  private Active<C, S> started() {
    Active<C, S> a = active;
    if (a == null) {
      throw new IllegalStateException(name + " controller is not started");
    }
    return a;
  }
}
