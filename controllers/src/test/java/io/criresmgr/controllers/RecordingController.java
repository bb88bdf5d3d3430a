package io.criresmgr.controllers;

import io.criresmgr.cache.Container;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A controller that records every call as {@code <name>.<call>[ <cacheId>]} into a shared list and
 * fails the calls it is told to fail.
 */
final class RecordingController implements Controller, CpuClassesListener {
  private final String name;
  private final List<String> calls;
  private final Set<String> failing = new HashSet<>();
  private RuntimeException failure = new ControllerException("boom");

  RecordingController(String name, List<String> calls) {
    this.name = name;
    this.calls = calls;
  }

  /** Makes {@code call} ({@code start}, {@code stop}, {@code preCreate}, ...) fail. */
  RecordingController failing(String call) {
    failing.add(call);
    return this;
  }

  /** Fails with {@code e} instead of a {@link ControllerException}. */
  RecordingController failingWith(RuntimeException e) {
    failure = e;
    return this;
  }

  private void record(String call, String detail) {
    calls.add(name + "." + call + detail);
    if (failing.contains(call)) {
      throw failure;
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void start(ControllerContext context) {
    record("start", "");
  }

  @Override
  public void reconfigure(ControllerContext context) {
    record(
        "reconfigure",
        " " + String.join(",", new java.util.TreeSet<>(context.sections().keySet())));
  }

  @Override
  public void preUpdate(Container container, ContainerEdits edits) {
    record("preUpdate", " " + container.cacheId());
  }

  @Override
  public void cpuClassesChanged(java.util.Map<String, io.criresmgr.cache.CpuSet> classes) {
    record("cpuClassesChanged", " " + classes);
  }

  @Override
  public void stop() {
    record("stop", "");
  }

  @Override
  public void preCreate(Container container, ContainerEdits edits) {
    record("preCreate", " " + container.cacheId());
  }

  @Override
  public void postStart(Container container) {
    record("postStart", " " + container.cacheId());
  }

  @Override
  public void postUpdate(Container container) {
    record("postUpdate", " " + container.cacheId());
  }

  @Override
  public void postStop(Container container) {
    record("postStop", " " + container.cacheId());
  }
}
