package io.criresmgr.cache;

/**
 * A container's compute resource requests and limits, as Kubernetes knows them. Zero means "not
 * set" (Kubernetes omits unset quantities).
 *
 * @param cpuRequestMilli CPU request in milli-CPUs
 * @param cpuLimitMilli CPU limit in milli-CPUs
 * @param memoryRequestBytes memory request in bytes
 * @param memoryLimitBytes memory limit in bytes
 */
public record Resources(
    long cpuRequestMilli, long cpuLimitMilli, long memoryRequestBytes, long memoryLimitBytes) {
  /** No requests, no limits. */
  public static final Resources NONE = new Resources(0, 0, 0, 0);

  /** Rejects negative amounts. */
  public Resources {
    requireNonNegative("cpuRequestMilli", cpuRequestMilli);
    requireNonNegative("cpuLimitMilli", cpuLimitMilli);
    requireNonNegative("memoryRequestBytes", memoryRequestBytes);
    requireNonNegative("memoryLimitBytes", memoryLimitBytes);
  }

  private static void requireNonNegative(String field, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(field + ": " + value + " is negative");
    }
  }
}
