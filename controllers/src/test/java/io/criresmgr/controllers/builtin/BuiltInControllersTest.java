package io.criresmgr.controllers.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.ControllerProvider;
import io.criresmgr.controllers.ControllerRegistry;
import io.criresmgr.controllers.ControllerSection;
import io.criresmgr.controllers.cgroups.CgroupsControllerProvider;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BuiltInControllersTest {
  private final ControllerRegistry registry = BuiltInControllers.registry();

  @Test
  void everyHostControllerIsRegisteredWithItsSectionInTheDocumentedOrder() {
    assertEquals(
        List.of("cpu", "rdt", "blockio", "memory-qos", "memtierd", "cgroups"), registry.names());
    assertEquals(
        List.of("cpu", "rdt", "blockio", "memory-qos", "memtierd"), registry.sectionNames());
  }

  @Test
  void createAllMakesFreshControllersNamedAsTheirProviders() {
    List<Controller> first = registry.createAll();
    assertEquals(registry.names(), first.stream().map(Controller::name).toList());
    List<Controller> second = registry.createAll();
    for (int i = 0; i < first.size(); i++) {
      assertNotSame(first.get(i), second.get(i));
    }
  }

  @Test
  void sectionsAreValidatedByTheirControllersParser() {
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () -> registry.validate("blockio", JsonNodeFactory.instance.arrayNode()));
    assertTrue(e.getMessage().startsWith("blockio"), e.getMessage());
    registry.validate("blockio", JsonNodeFactory.instance.objectNode());
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> registry.validate("cgroups", JsonNodeFactory.instance.objectNode()));
    assertEquals("not a controller section: cgroups", unknown.getMessage());
  }

  @Test
  void everySectionHasHelpWithASummaryLine() {
    for (ControllerSection<?> s : registry.sections()) {
      assertTrue(s.help().lines().findFirst().orElseThrow().endsWith("md)."), s.help());
    }
  }

  @Test
  void duplicateNamesOrSectionsAreRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new ControllerRegistry(
                    List.of(new CgroupsControllerProvider(), new CgroupsControllerProvider())));
    assertEquals("duplicate controller name \"cgroups\"", e.getMessage());
    ControllerProvider first = provider("a", "shared");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ControllerRegistry(List.of(first, provider("b", "shared"))));
    assertEquals("duplicate controller section \"shared\"", e.getMessage());
  }

  private static ControllerProvider provider(String name, String section) {
    return new ControllerProvider() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Optional<ControllerSection<?>> section() {
        return Optional.of(new ControllerSection<>(section, "help", node -> node));
      }

      @Override
      public Controller create() {
        return () -> name;
      }
    };
  }
}
