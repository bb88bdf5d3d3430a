package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A digest of everything in a configuration that decides where containers go: every option except
 * the CPU classes ({@code CPUClass}, {@code IdleCPUClass}), plus the allowed and reserved CPUs. The
 * policy data remembers the key of the configuration that built it; a different key means a
 * reconfiguration, which places every container again (nri-plugins' {@code changesBalloons}).
 */
final class PlacementKey {
  private PlacementKey() {}

  /** The key of {@code options} on {@code allowed} CPUs with {@code reserved} among them. */
  static String of(BalloonsOptions options, CpuSet allowed, CpuSet reserved) {
    StringBuilder text = new StringBuilder();
    add(text, "allowed", allowed);
    add(text, "reserved", reserved);
    add(text, "PinCPU", options.pinCpu());
    add(text, "PinMemory", options.pinMemory());
    add(text, "ReservedPoolNamespaces", options.reservedPoolNamespaces());
    add(text, "AllocatorTopologyBalancing", options.allocatorTopologyBalancing());
    add(text, "PreferSpreadOnPhysicalCores", options.preferSpreadOnPhysicalCores());
    for (BalloonType t : options.effectiveTypes()) {
      text.append("type\n");
      typeKey(text, t);
      if (!t.loads().isEmpty()) { // only then, so that keys of earlier configurations stay
        add(text, "Loads", options.loadsOf(t));
      }
    }
    return digest(text.toString());
  }

  private static void typeKey(StringBuilder text, BalloonType t) {
    add(text, "Name", t.name());
    add(text, "Namespaces", t.namespaces());
    // Expression.toString joins values with ",", which a value may hold: list them one by one.
    add(
        text,
        "MatchExpressions",
        t.matchExpressions().stream()
            .map(
                e ->
                    e.key()
                        + '\u0001'
                        + e.operator()
                        + '\u0001'
                        + String.join("\u0001", e.values()))
            .toList());
    add(text, "MinCPUs", t.minCpus());
    add(text, "MaxCPUs", t.maxCpus());
    add(text, "MinBalloons", t.minBalloons());
    add(text, "MaxBalloons", t.maxBalloons());
    add(text, "AllocatorPriority", t.allocatorPriority());
    add(text, "PreferSpreadingPods", t.preferSpreadingPods());
    add(text, "PreferPerNamespaceBalloon", t.preferPerNamespaceBalloon());
    add(text, "PreferNewBalloons", t.preferNewBalloons());
    add(text, "ShareIdleCPUsInSame", t.shareIdleCpusInSame());
    add(text, "PreferSpreadOnPhysicalCores", t.preferSpreadOnPhysicalCores());
    add(text, "AllocatorTopologyBalancing", t.allocatorTopologyBalancing());
    add(text, "PinMemory", t.pinMemory());
    // A set's iteration order differs between runs; the key must not.
    add(text, "MemoryTypes", t.memoryTypes().stream().map(Enum::name).sorted().toList());
    add(text, "HideHyperthreads", t.hideHyperthreads());
    add(text, "PreferIsolCpus", t.preferIsolCpus());
    add(text, "PreferCoreType", t.preferCoreType());
    if (t.groupBy().enabled()) { // only then, so that keys of earlier configurations stay
      add(text, "GroupBy", t.groupBy().template());
    }
    if (!t.preferCloseToDevices().isEmpty()) { // likewise
      add(text, "PreferCloseToDevices", t.preferCloseToDevices());
    }
  }

  private static void add(StringBuilder text, String field, @Nullable Object value) {
    String v = value instanceof List<?> list ? String.join("\u0000", strings(list)) : "" + value;
    text.append(field).append('=').append(v).append('\n');
  }

  private static List<String> strings(List<?> list) {
    return list.stream().map(Objects::toString).toList();
  }

  private static String digest(String text) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] hash = sha.digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
