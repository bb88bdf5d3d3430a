package io.criresmgr.controllers.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.FakeNode;
import io.criresmgr.controllers.LogCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuControllerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CLASSES =
      "{'classes': {'turbo': {'minFreq': 3000000, 'maxFreq': 3600000},"
          + " 'idle': {'minFreq': 800000, 'maxFreq': 1000000}}}";
  private static final String UNCORE_CLASSES =
      "{'classes': {"
          + "'turbo': {'maxFreq': 3600000, 'uncoreMinFreq': 2000000, 'uncoreMaxFreq': 2400000},"
          + " 'idle': {'maxFreq': 1000000, 'uncoreMinFreq': 800000, 'uncoreMaxFreq': 1200000},"
          + " 'plain': {'maxFreq': 2000000}}}";

  @TempDir Path root;
  private FakeCpuTree tree;
  private final KernelLikeIo io = new KernelLikeIo();
  private final CpuController controller = new CpuController(io);
  private final LogCapture log = LogCapture.of(CpuController.class);

  @BeforeEach
  void setUp() {
    tree = new FakeCpuTree(root).cpus(0, 3, 0, 0).cpus(4, 7, 1, 0);
  }

  @AfterEach
  void releaseLog() {
    log.close();
  }

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text.replace('\'', '"'));
    } catch (JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  private ControllerContext context(String section, Map<String, CpuSet> classes) {
    Map<String, JsonNode> sections = section == null ? Map.of() : Map.of("cpu", json(section));
    return new ControllerContext(
        root, root.resolve("sys/fs/cgroup"), sections, new FakeNode().setCpuClasses(classes));
  }

  private List<String> warnings() {
    return log.messages(Level.WARN);
  }

  @Test
  void startWritesEachClassToItsCpusAndLeavesTheOthersAlone() {
    controller.start(
        context(CLASSES, Map.of("turbo", CpuSet.of(2, 3), "idle", CpuSet.of(0, 1, 4))));
    assertEquals("800000..1000000", tree.scaling(0));
    assertEquals("800000..1000000", tree.scaling(4));
    assertEquals("3000000..3600000", tree.scaling(2));
    assertEquals("3000000..3600000", tree.scaling(3));
    assertEquals("800000..3600000", tree.scaling(5));
    // Only what differs is written: turbo's max and idle's min were already there.
    assertEquals(
        List.of(
            "cpu0/scaling_max_freq=1000000",
            "cpu1/scaling_max_freq=1000000",
            "cpu4/scaling_max_freq=1000000",
            "cpu2/scaling_min_freq=3000000",
            "cpu3/scaling_min_freq=3000000"),
        io.writes);
    assertEquals(List.of(), warnings());
  }

  @Test
  void movingCpusBetweenClassesWritesInAnOrderTheKernelAccepts() {
    controller.start(context(CLASSES, Map.of("turbo", CpuSet.of(2))));
    io.writes.clear();
    controller.cpuClassesChanged(Map.of("idle", CpuSet.of(2)));
    assertEquals("800000..1000000", tree.scaling(2));
    // Lowering: the new max is below the current min, so the min goes first.
    assertEquals(
        List.of("cpu2/scaling_min_freq=800000", "cpu2/scaling_max_freq=1000000"), io.writes);
    io.writes.clear();
    controller.cpuClassesChanged(Map.of("turbo", CpuSet.of(2)));
    assertEquals("3000000..3600000", tree.scaling(2));
    // Raising: the new min is above the current max, so the max goes first.
    assertEquals(
        List.of("cpu2/scaling_max_freq=3600000", "cpu2/scaling_min_freq=3000000"), io.writes);
  }

  @Test
  void applyingTheSameClassesAgainWritesNothing() {
    Map<String, CpuSet> classes = Map.of("turbo", CpuSet.of(2), "idle", CpuSet.of(3));
    controller.start(context(CLASSES, classes));
    io.writes.clear();
    controller.cpuClassesChanged(classes);
    controller.cpuClassesChanged(Map.of("turbo", CpuSet.of(2)));
    assertEquals(List.of(), io.writes);
  }

  @Test
  void limitsAreClampedToTheHardwareRangeAsTheKernelWouldSoTheyStayIdempotent() {
    controller.start(
        context("{'classes': {'max': {'minFreq': 100, 'maxFreq': 9000000}}}", Map.of()));
    controller.cpuClassesChanged(Map.of("max", CpuSet.of(1)));
    assertEquals("800000..3600000", tree.scaling(1));
    assertEquals(List.of(), io.writes);
  }

  @Test
  void uncoreGetsTheLargestLimitsOfTheClassesOnEachDie() {
    tree.cpus(8, 9, 1, 1).withUncore(0, 0).withUncore(1, 0).withUncore(1, 1);
    controller.start(
        context(
            UNCORE_CLASSES,
            Map.of(
                "turbo", CpuSet.of(2),
                "idle", CpuSet.of(0, 4),
                "plain", CpuSet.of(8))));
    assertEquals("2000000..2400000", tree.uncore(0, 0));
    assertEquals("800000..1200000", tree.uncore(1, 0));
    // Die 1 of package 1 has only a class without uncore limits: left alone.
    assertEquals("800000..2400000", tree.uncore(1, 1));
    assertEquals("800000..2000000", tree.scaling(8));
  }

  @Test
  void aDieWhoseLargestMinimumExceedsItsLargestMaximumGetsTheMinimumAsMaximum() {
    tree.withUncore(0, 0);
    controller.start(
        context(
            "{'classes': {'fast': {'uncoreMinFreq': 2000000},"
                + " 'slow': {'uncoreMaxFreq': 1200000}}}",
            Map.of("fast", CpuSet.of(0), "slow", CpuSet.of(1))));
    assertEquals("2000000..2000000", tree.uncore(0, 0));
  }

  @Test
  void aCpuWithoutDieIdIsOnDieZeroOfItsPackage() throws Exception {
    tree.withUncore(1, 0);
    Files.delete(tree.topology(5, "die_id"));
    controller.start(context(UNCORE_CLASSES, Map.of("turbo", CpuSet.of(5))));
    assertEquals("2000000..2400000", tree.uncore(1, 0));
  }

  @Test
  void withoutTheUncoreDriverAClassWithUncoreLimitsCannotStart() {
    ControllerException e =
        assertThrows(
            ControllerException.class, () -> controller.start(context(UNCORE_CLASSES, Map.of())));
    assertEquals(
        "uncore frequency control is not available: "
            + root.resolve("sys/devices/system/cpu/intel_uncore_frequency")
            + " does not exist (is the intel_uncore_frequency driver loaded?)",
        e.getMessage());
  }

  @Test
  void aMissingDieDirectoryIsNamedWhenItsClassIsApplied() {
    tree.withUncore(0, 0);
    controller.start(context(UNCORE_CLASSES, Map.of()));
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () -> controller.cpuClassesChanged(Map.of("idle", CpuSet.of(4))));
    assertEquals(
        "uncore frequency control is not available: "
            + tree.uncoreDir(1, 0)
            + " does not exist (is the intel_uncore_frequency driver loaded?)",
        e.getMessage());
  }

  @Test
  void withoutCpufreqAClassWithFrequenciesCannotStart(@TempDir Path bare) throws Exception {
    // A cpufreq directory with facts but without limits (as some fake trees have) is not enough.
    FakeCpuTree.write(bare.resolve("sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"), 1);
    CpuController c = new CpuController(io);
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () ->
                c.start(
                    new ControllerContext(
                        bare, bare, Map.of("cpu", json(CLASSES)), new FakeNode())));
    assertEquals(
        "cpufreq is not available: no "
            + bare.resolve("sys/devices/system/cpu/cpu*/cpufreq/scaling_max_freq"),
        e.getMessage());
  }

  @Test
  void aFailedWriteNamesTheFileTheValueAndTheErrorAndTheOtherCpusAreStillWritten() {
    Path denied = tree.cpufreq(2, "scaling_max_freq");
    io.deny(denied);
    controller.start(context(CLASSES, Map.of()));
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () -> controller.cpuClassesChanged(Map.of("idle", CpuSet.of(1, 2, 3))));
    assertEquals("cannot write 1000000 to " + denied + ": permission denied", e.getMessage());
    assertEquals("800000..1000000", tree.scaling(1));
    assertEquals("800000..1000000", tree.scaling(3));
  }

  @Test
  void aFailureAtStartIsLoggedAndTheControllerKeepsRunning() {
    io.deny(tree.cpufreq(0, "scaling_max_freq"));
    controller.start(context(CLASSES, Map.of("idle", CpuSet.of(0))));
    assertEquals(
        List.of(
            "controller cpu cannot apply CPU classes: cannot write 1000000 to "
                + tree.cpufreq(0, "scaling_max_freq")
                + ": permission denied"),
        warnings());
    controller.cpuClassesChanged(Map.of("idle", CpuSet.of(1)));
    assertEquals("800000..1000000", tree.scaling(1));
  }

  @Test
  void aMissingCpuIsNamed() {
    controller.start(context(CLASSES, Map.of()));
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () -> controller.cpuClassesChanged(Map.of("idle", CpuSet.of(12))));
    assertEquals(
        "cannot read " + tree.cpufreq(12, "scaling_min_freq") + ": no such file", e.getMessage());
  }

  @Test
  void anUnknownClassIsWarnedOnceAndItsCpusAreLeftAlone() {
    controller.start(context(CLASSES, Map.of("gold", CpuSet.of(1))));
    controller.cpuClassesChanged(Map.of("gold", CpuSet.of(1, 2), "idle", CpuSet.of(3)));
    controller.cpuClassesChanged(Map.of("gold", CpuSet.of(2)));
    assertEquals(
        List.of(
            "non-existent cpu class \"gold\": the policy puts CPUs 1 in it but section cpu"
                + " defines only [idle, turbo]; they are left alone"),
        warnings());
    assertEquals("800000..3600000", tree.scaling(1));
    assertEquals("800000..3600000", tree.scaling(2));
    assertEquals("800000..1000000", tree.scaling(3));
  }

  @Test
  void withoutTheSectionTheControllerIsInertAndSilent() {
    controller.start(context(null, Map.of("idle", CpuSet.of(0))));
    controller.cpuClassesChanged(Map.of("turbo", CpuSet.of(1)));
    assertEquals(List.of(), io.writes);
    assertTrue(log.events().isEmpty(), () -> log.events().toString());
  }

  @Test
  void reconfigureAppliesTheNewLimitsToTheCurrentClasses() {
    Map<String, CpuSet> classes = Map.of("turbo", CpuSet.of(2));
    controller.start(context(CLASSES, classes));
    controller.reconfigure(
        context("{'classes': {'turbo': {'minFreq': 2000000, 'maxFreq': 2400000}}}", classes));
    assertEquals("2000000..2400000", tree.scaling(2));
    io.writes.clear();
    controller.reconfigure(
        context("{'classes': {'turbo': {'minFreq': 2000000, 'maxFreq': 2400000}}}", classes));
    assertEquals(List.of(), io.writes);
    controller.reconfigure(context(null, classes));
    controller.cpuClassesChanged(Map.of("turbo", CpuSet.of(3)));
    assertEquals(List.of(), io.writes);
  }

  @Test
  void reconfigureRefusesLimitsTheHostCannotSet() {
    controller.start(context(CLASSES, Map.of()));
    assertThrows(
        ControllerException.class,
        () -> controller.reconfigure(context(UNCORE_CLASSES, Map.of("turbo", CpuSet.of(2)))));
    assertEquals("800000..3600000", tree.scaling(2));
  }

  @Test
  void energyPerformancePreferenceIsReportedAsNotEnforced() {
    controller.start(
        context("{'classes': {'eco': {'energyPerformancePreference': 128}}}", Map.of()));
    assertEquals(
        List.of("cpu class eco: energyPerformancePreference 128 is not enforced"), log.messages());
  }

  @Test
  void afterStopNothingIsWritten() {
    controller.start(context(CLASSES, Map.of()));
    controller.stop();
    controller.cpuClassesChanged(Map.of("idle", CpuSet.of(0)));
    assertEquals(List.of(), io.writes);
    assertEquals("cpu", controller.name());
  }
}
