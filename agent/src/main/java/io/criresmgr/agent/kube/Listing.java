package io.criresmgr.agent.kube;

import java.util.List;
import java.util.Objects;

/**
 * The result of a list call.
 *
 * @param items the objects
 * @param resourceVersion the list's resource version, where a watch resumes
 */
public record Listing<T>(List<T> items, String resourceVersion) {
  /** Copies {@code items}. */
  public Listing {
    items = List.copyOf(items);
    Objects.requireNonNull(resourceVersion, "resourceVersion");
  }
}
