package io.criresmgr.agent.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CapacitiesTest {
  private static final String ALLOWED =
      "only extended resources, named with a '.' and a '/' (e.g. example.com/foo), can be set";

  @Test
  void extendedResourceNamesAreAllowed() {
    assertEquals(Optional.empty(), Capacities.nameError("example.com/foo"));
    assertEquals(Optional.empty(), Capacities.nameError("intel.com/rdt-class.gold"));
  }

  @Test
  void nativeResourcesAreRefused() {
    for (String name : new String[] {"cpu", "memory", "hugepages-2Mi", "hugepages-1Gi"}) {
      assertEquals(
          Optional.of(
              "resource \""
                  + name
                  + "\" is native (cpu, memory, hugepages-*) and set by the kubelet; "
                  + ALLOWED),
          Capacities.nameError(name));
    }
  }

  @Test
  void namesWithoutDotAndSlashAreRefused() {
    for (String name : new String[] {"foo", "example.com", "example/foo", ""}) {
      assertEquals(
          Optional.of("resource \"" + name + "\" is not an extended resource; " + ALLOWED),
          Capacities.nameError(name));
    }
  }

  @Test
  void quantitiesAreChecked() {
    assertEquals(Optional.empty(), Capacities.quantityError("example.com/foo", "4"));
    assertEquals(Optional.empty(), Capacities.quantityError("example.com/foo", "1500m"));
    assertEquals(Optional.empty(), Capacities.quantityError("example.com/foo", "2Gi"));
    assertEquals(
        Optional.of("capacity of \"example.com/foo\": \"four\" is not a Kubernetes quantity"),
        Capacities.quantityError("example.com/foo", "four"));
    assertEquals(
        Optional.of("capacity of \"example.com/foo\": \"\" is not a Kubernetes quantity"),
        Capacities.quantityError("example.com/foo", ""));
  }

  @Test
  void theFirstErrorInNameOrderIsReported() {
    assertEquals(
        Optional.of("capacity of \"a.b/c\": \"x\" is not a Kubernetes quantity"),
        Capacities.error(Map.of("z.b/c", "1", "a.b/c", "x", "memory", "1")));
    assertEquals(Optional.empty(), Capacities.error(Map.of("a.b/c", "1", "d.e/f", "2k")));
  }

  @Test
  void theStatusPatchMergesTheCapacities() {
    assertEquals(
        "{\"status\":{\"capacity\":{\"a.b/c\":\"1\",\"d.e/f\":\"2k\"}}}",
        Capacities.statusPatch(Map.of("d.e/f", "2k", "a.b/c", "1")));
  }
}
