package io.criresmgr.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.LinuxResources;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ContainerEditsTest {
  @Test
  void startsEmpty() {
    ContainerEdits edits = new ContainerEdits();
    assertEquals(Optional.empty(), edits.linuxResources());
    assertEquals(Map.of(), edits.annotations());
    assertEquals(Map.of(), edits.env());
  }

  @Test
  void laterEditsOfOneKeyWin() {
    ContainerEdits edits = new ContainerEdits();
    LinuxResources first = new LinuxResources(100000, 50000, 512, 0, "0", "0", Map.of());
    edits.setLinuxResources(first);
    edits.setLinuxResources(LinuxResources.NONE);
    edits.putAnnotation("a", "1");
    edits.putAnnotation("a", "2");
    edits.putEnv("E", "x");
    assertEquals(Optional.of(LinuxResources.NONE), edits.linuxResources());
    assertEquals(Map.of("a", "2"), edits.annotations());
    assertEquals(Map.of("E", "x"), edits.env());
  }

  @Test
  void returnsCopies() {
    ContainerEdits edits = new ContainerEdits();
    edits.putEnv("E", "x");
    assertThrows(UnsupportedOperationException.class, () -> edits.env().put("F", "y"));
  }

  @Test
  void unifiedClaimsOfOneFileMustAgree() {
    ContainerEdits edits = new ContainerEdits();
    edits.claimUnified("memory-qos", "memory.swap.max", "max");
    edits.claimUnified("memory-qos", "memory.high", "50000000");
    edits.claimUnified("memtierd", "memory.swap.max", "max");
    assertEquals(Map.of("memory.high", "50000000", "memory.swap.max", "max"), edits.unified());
    ControllerException e =
        assertThrows(
            ControllerException.class, () -> edits.claimUnified("memtierd", "memory.high", "max"));
    assertEquals(
        "conflicting values for cgroup file memory.high: memory-qos sets \"50000000\","
            + " memtierd sets \"max\"",
        e.getMessage());
    assertEquals("50000000", edits.unified().get("memory.high"), "the first claim stays");
  }

  @Test
  void aConflictingClaimSetsNoneOfItsFiles() {
    ContainerEdits edits = new ContainerEdits();
    edits.claimUnified("memory-qos", "memory.swap.max", "max");
    assertThrows(
        ControllerException.class,
        () -> edits.claimUnified("memtierd", Map.of("memory.high", "max", "memory.swap.max", "0")));
    assertEquals(
        Map.of("memory.swap.max", "max"),
        edits.unified(),
        "a relaxed controller's failed claim must leave nothing behind");
  }
}
