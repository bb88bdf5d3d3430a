package io.criresmgr.controllers.memtierd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.controllers.ControllerException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MemtierdChoiceTest {
  private static final MemtierdClass SWAP = new MemtierdClass("swap-idle-data", true, "x");
  private static final MemtierdClass WSS = new MemtierdClass("track-working-set-size", false, "y");
  private static final MemtierdClass PLAIN = new MemtierdClass("plain", null, "");
  private static final MemtierdConfig CONFIG =
      new MemtierdConfig(List.of(SWAP, WSS, PLAIN), "memtierd", Path.of("/run/mt"));

  /** The annotations of the reference's manual test pod. */
  private static final Map<String, String> POD =
      Map.of(
          "class.memtierd.nri.io", "swap-idle-data",
          "class.memtierd.nri.io/c2-noswap", "",
          "class.memtierd.nri.io/c1-normal", "track-working-set-size");

  @Test
  void podClassAppliesToEveryContainer() {
    MemtierdChoice c = MemtierdChoice.of(CONFIG, POD, "c0-lowprio");
    assertEquals(Optional.of(SWAP), c.chosenClass());
    assertEquals(Map.of("memory.swap.max", "max"), c.unified());
  }

  @Test
  void containerAnnotationWins() {
    MemtierdChoice c = MemtierdChoice.of(CONFIG, POD, "c1-normal");
    assertEquals(Optional.of(WSS), c.chosenClass());
    assertEquals(Map.of("memory.swap.max", "0"), c.unified());
  }

  @Test
  void anEmptyClassMeansNoClass() {
    MemtierdChoice c = MemtierdChoice.of(CONFIG, POD, "c2-noswap");
    assertEquals(Optional.empty(), c.chosenClass());
    assertEquals(Map.of(), c.unified());
  }

  @Test
  void noAnnotationsNoClass() {
    MemtierdChoice c = MemtierdChoice.of(CONFIG, Map.of("other", "x"), "c");
    assertEquals(new MemtierdChoice(null, Map.of(), List.of()), c);
  }

  @Test
  void aClassWithoutAllowSwapDoesNotTouchSwap() {
    MemtierdChoice c = MemtierdChoice.of(CONFIG, Map.of("class.memtierd.nri.io", "plain"), "c");
    assertEquals(Optional.of(PLAIN), c.chosenClass());
    assertEquals(Map.of(), c.unified());
  }

  @Test
  void directAnnotationsWinOverAllowSwap() {
    MemtierdChoice c =
        MemtierdChoice.of(
            CONFIG,
            Map.of(
                "class.memtierd.nri.io", "swap-idle-data",
                "memory.swap.max.memtierd.nri.io", "max",
                "memory.swap.max.memtierd.nri.io/c", "0",
                "memory.high.memtierd.nri.io", "max"),
            "c");
    assertEquals(Map.of("memory.swap.max", "0", "memory.high", "max"), c.unified());
  }

  @Test
  void otherContainersAnnotationsAreIgnoredAndUnknownPrefixesWarned() {
    MemtierdChoice c =
        MemtierdChoice.of(
            CONFIG,
            Map.of(
                "class.memtierd.nri.io/other", "no-such-class",
                "memory.low.memtierd.nri.io", "1"),
            "c");
    assertEquals(Optional.empty(), c.chosenClass());
    assertEquals(
        List.of(
            "memory.low.memtierd.nri.io: ignored,"
                + " memtierd annotations are class, memory.swap.max, memory.high"),
        c.warnings());
  }

  @Test
  void anUnknownClassIsAnError() {
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () -> MemtierdChoice.of(CONFIG, Map.of("class.memtierd.nri.io/c", "gold"), "c"));
    assertEquals(
        "unknown memtierd class \"gold\" (annotation class.memtierd.nri.io/c), configured classes:"
            + " [swap-idle-data, track-working-set-size, plain]",
        e.getMessage());
  }
}
