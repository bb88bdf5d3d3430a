package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Equal label and annotation strings decoded apart are held once by the records that keep them. */
class SharedStringsTest {
  /** A string equal to {@code s} but not the same object, as each decoded request makes one. */
  private static String decoded(String s) {
    return new String(s.toCharArray());
  }

  private static Map<String, String> labels(String pod) {
    return Map.of(
        decoded("io.kubernetes.container.name"), decoded("web"),
        decoded("io.kubernetes.pod.name"), decoded(pod));
  }

  @Test
  void equalKeysAndValuesOfTwoMapsAreOneObject() {
    Map<String, String> a = SharedStrings.of(labels("pod-a"));
    Map<String, String> b = SharedStrings.of(labels("pod-b"));
    assertEquals(labels("pod-a"), a);
    assertEquals(labels("pod-b"), b);
    String keyA = a.keySet().stream().filter(k -> k.endsWith("container.name")).findFirst().get();
    String keyB = b.keySet().stream().filter(k -> k.endsWith("container.name")).findFirst().get();
    assertSame(keyA, keyB);
    assertSame(a.get("io.kubernetes.container.name"), b.get("io.kubernetes.container.name"));
    assertSame(SharedStrings.of(decoded("pod-a")), a.get("io.kubernetes.pod.name"));
  }

  @Test
  void theSharedMapIsImmutableAndKeptAsItIsByAContainer() {
    Map<String, String> shared = SharedStrings.of(labels("pod-a"));
    assertThrows(UnsupportedOperationException.class, () -> shared.put("k", "v"));
    Container c = Fixtures.container("uid-a", "web", "c1", 1).toBuilder().labels(shared).build();
    assertSame(shared, c.labels());
    assertEquals(Map.of(), SharedStrings.of(Map.of()));
  }
}
