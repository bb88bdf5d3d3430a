package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ExportedResourcesTest {
  @Test
  void linesAreSortedShellAssignments() {
    assertEquals(
        "ALL_MEMS=\"0,1\"\nSHARED_CPUS=\"1-3,6\"\n",
        ExportedResources.render("p:c", Map.of("SHARED_CPUS", "1-3,6", "ALL_MEMS", "0,1")));
  }

  @Test
  void valuesCannotEscapeTheirQuotesAndBadNamesAreLeftOut() {
    assertEquals(
        "A=\"\\\"\\$(x)\\`\\\\\"\n",
        ExportedResources.render("p:c", Map.of("A", "\"$(x)`\\", "B-C", "1", "1X", "2")));
  }

  @Test
  void theDirectoryIsTheCacheIdWithTheFirstColonAsDash() {
    assertEquals("uid-1-c:x", ExportedResources.directoryName("uid-1:c:x"));
  }

  @Test
  void anEmptyExportIsAnEmptyFile() {
    assertEquals("", ExportedResources.render("p:c", Map.of()));
  }
}
