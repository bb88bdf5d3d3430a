package io.criresmgr.proxy.core.cri;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.LinuxResources;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestedAnnotationTest {
  private static final LinuxResources GUARANTEED =
      new LinuxResources(100_000, 200_000, 2048, 256L << 20, "", "", Map.of());
  private static final LinuxResources EVERYTHING =
      new LinuxResources(
          100_000, -1, 512, 1L << 30, "0-3", "0", Map.of("memory.high", "max", "cpu.idle", "1"));
  private static final LinuxResources REWRITTEN =
      new LinuxResources(100_000, 200_000, 2, 256L << 20, "2-3", "0", Map.of());

  @Test
  void formatIsCompactJsonWithTheVersionAndTheSetFields() {
    assertEquals(
        "{\"v\":1,\"shares\":2048,\"quota\":200000,\"period\":100000,\"memory\":268435456}",
        RequestedAnnotation.format(GUARANTEED));
    assertEquals("{\"v\":1}", RequestedAnnotation.format(LinuxResources.NONE));
  }

  @Test
  void everyFieldRoundTrips() {
    for (LinuxResources r : new LinuxResources[] {GUARANTEED, EVERYTHING, LinuxResources.NONE}) {
      assertEquals(r, RequestedAnnotation.parse(RequestedAnnotation.format(r)));
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"v\":2,\"shares\":2}| version 2 is not supported, expected 1",
        "{\"shares\":2}| \"v\", the format version, is missing",
        "' '| the value is empty",
        "{\"v\":1,\"cpu\":2}| unknown key \"cpu\", expected some of [cpus, memory, mems, period,"
            + " quota, shares, unified, v]",
        "{\"v\":1,\"shares\":2.5}| shares: 2.5 is not a whole non-negative number",
        "{\"v\":1,\"memory\":-1}| memory: -1 is not a whole non-negative number",
        "{\"v\":1,\"quota\":-2}| quota: -2 is not a whole non-negative number",
        "{\"v\":1,\"shares\":\"2\"}| shares: \"2\" is not a whole non-negative number",
        "{\"v\":1,\"shares\":99999999999999999999}| shares: 99999999999999999999 is not a whole"
            + " non-negative number",
        "{\"v\":1,\"cpus\":3}| cpus: 3 is not a string",
        "{\"v\":1,\"unified\":[]}| unified: [] is not an object of strings",
        "{\"v\":1,\"unified\":{\"a\":1}}| unified.a: 1 is not a string",
        "[1]| expected a JSON object, got [1]",
        "{\"v\":1} {}| not JSON: Trailing token (of type START_OBJECT) found after value",
        "{\"v\":1,\"v\":1}| not JSON: Duplicate field 'v'",
        "guaranteed| not JSON: Unrecognized token 'guaranteed'",
      })
  void malformedValuesAreRefusedSayingWhy(String value, String why) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RequestedAnnotation.parse(value));
    String prefix = "annotation " + RequestedAnnotation.KEY + ": " + why;
    assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
  }

  @Test
  void anOverlongValueIsRefusedBeforeParsing() {
    String value = "{\"v\":1,\"cpus\":\"" + "0,".repeat(3000) + "0\"}";
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RequestedAnnotation.parse(value));
    assertEquals(
        "annotation "
            + RequestedAnnotation.KEY
            + ": the value has 6018 characters, at most 4096 (expected e.g. {\"v\":1,"
            + "\"shares\":2048,\"quota\":200000,\"period\":100000,\"memory\":268435456})",
        e.getMessage());
  }

  @Test
  void requestedPrefersTheAnnotationOverWhatTheRuntimeApplies() {
    Map<String, String> annotations =
        Map.of(RequestedAnnotation.KEY, RequestedAnnotation.format(GUARANTEED), "other", "x");
    assertEquals(GUARANTEED, RequestedAnnotation.requested("p:c", annotations, REWRITTEN));
  }

  /**
   * The runtime cannot update annotations: a container resized in place gets its creation values.
   */
  @Test
  void requestedKeepsTheCreationValuesOfAContainerResizedSince() {
    Map<String, String> annotations =
        Map.of(RequestedAnnotation.KEY, RequestedAnnotation.format(GUARANTEED));
    LinuxResources resized =
        new LinuxResources(100_000, 400_000, 2, 512L << 20, "2-5", "0", Map.of());
    assertEquals(GUARANTEED, RequestedAnnotation.requested("p:c", annotations, resized));
  }

  @Test
  void requestedFallsBackToTheRuntimesResourcesWithoutAReadableAnnotation() {
    assertSame(REWRITTEN, RequestedAnnotation.requested("p:c", Map.of(), REWRITTEN));
    for (String foreign : new String[] {"", "{\"v\":7}", "2 CPUs", "{\"v\":1,\"x\":1}"}) {
      Map<String, String> annotations = Map.of(RequestedAnnotation.KEY, foreign);
      assertSame(REWRITTEN, RequestedAnnotation.requested("p:c", annotations, REWRITTEN), foreign);
    }
  }

  @Test
  void withoutDropsOnlyTheAnnotation() {
    Map<String, String> annotations = Map.of(RequestedAnnotation.KEY, "{\"v\":1}", "other", "x");
    assertEquals(Map.of("other", "x"), RequestedAnnotation.without(annotations));
    Map<String, String> plain = Map.of("other", "x");
    assertSame(plain, RequestedAnnotation.without(plain));
  }
}
