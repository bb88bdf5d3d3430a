package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerFilter;
import io.criresmgr.api.runtime.v1.ContainerStats;
import io.criresmgr.api.runtime.v1.ContainerStatsFilter;
import io.criresmgr.api.runtime.v1.Image;
import io.criresmgr.api.runtime.v1.ImageFilter;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxFilter;
import io.criresmgr.api.runtime.v1.PodSandboxStats;
import io.criresmgr.api.runtime.v1.PodSandboxStatsFilter;
import java.util.List;
import java.util.Objects;

/** The filtered lists shared by the {@code List*} and {@code Stream*} RPCs. */
final class Listings {
  private final SimState state;
  private final ImageStore images;

  Listings(SimState state, ImageStore images) {
    this.state = Objects.requireNonNull(state, "state");
    this.images = Objects.requireNonNull(images, "images");
  }

  List<PodSandbox> pods(PodSandboxFilter filter) {
    return state.pods().stream()
        .filter(p -> SimFilters.matches(filter, p))
        .map(PodViews::sandbox)
        .toList();
  }

  List<Container> containers(ContainerFilter filter) {
    return state.containers().stream()
        .filter(c -> SimFilters.matches(filter, c))
        .map(ContainerViews::container)
        .toList();
  }

  List<ContainerStats> containerStats(ContainerStatsFilter filter) {
    long now = state.now();
    return state.containers().stream()
        .filter(c -> SimFilters.matches(filter, c))
        .map(c -> StatsViews.container(c, now))
        .toList();
  }

  List<PodSandboxStats> podStats(PodSandboxStatsFilter filter) {
    long now = state.now();
    return state.pods().stream()
        .filter(p -> SimFilters.matches(filter, p))
        .map(p -> StatsViews.pod(p, state.containersOf(p.id()), now))
        .toList();
  }

  List<Image> images(ImageFilter filter) {
    return images.list().stream()
        .filter(i -> SimFilters.matches(filter, i))
        .map(ImageViews::image)
        .toList();
  }
}
