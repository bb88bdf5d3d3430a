package io.criresmgr.controllers.memoryqos;

import io.criresmgr.controllers.ControllerException;
import java.util.List;

/**
 * The memory QoS annotations of a container cannot be honoured (unknown class, disallowed file,
 * missing memory limit, ...); the container must not be created. The message lists every problem.
 */
public final class MemoryQosException extends ControllerException {
  private static final long serialVersionUID = 1L;

  /** The problems, one per annotation, in annotation order. */
  @SuppressWarnings("serial") // an immutable List.copyOf, serializable in practice
  private final List<String> problems;

  /** For container {@code containerName} with the given problems (at least one). */
  public MemoryQosException(String containerName, List<String> problems) {
    super("memory QoS of container " + containerName + ": " + String.join("; ", problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("no problems");
    }
    this.problems = List.copyOf(problems);
  }

  /** Each problem, e.g. {@code class.memory-qos.nri.io: unknown class "gold", ...}. */
  public List<String> problems() {
    return problems;
  }
}
