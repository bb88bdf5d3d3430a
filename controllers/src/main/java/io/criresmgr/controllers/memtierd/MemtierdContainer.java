package io.criresmgr.controllers.memtierd;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A managed container by name, which is also where its memtierd files live: {@code
 * <runDir>/<namespace>/<pod>/<container>/}. Every part must be one safe path segment: not empty,
 * not {@code .} or {@code ..}, no {@code /} and no NUL.
 *
 * @param namespace the pod's namespace
 * @param pod the pod name
 * @param container the container name
 */
public record MemtierdContainer(String namespace, String pod, String container) {
  /** Rejects parts that are not a single safe path segment. */
  public MemtierdContainer {
    check("namespace", namespace);
    check("pod", pod);
    check("container", container);
  }

  /** The output directory of this container under {@code runDir}. */
  public Path dir(Path runDir) {
    return runDir.resolve(namespace).resolve(pod).resolve(container);
  }

  @Override
  public String toString() {
    return namespace + "/" + pod + ":" + container;
  }

  private static void check(String what, String segment) {
    Objects.requireNonNull(segment, what);
    if (segment.isEmpty()
        || segment.equals(".")
        || segment.equals("..")
        || segment.indexOf('/') >= 0
        || segment.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          what
              + " \""
              + segment
              + "\" is not a single path segment (not empty, . or .., no / or NUL)");
    }
  }
}
