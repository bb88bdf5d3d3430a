package io.criresmgr.controllers.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One min/max pair on a kernel-like fake: every move between two valid ranges is accepted. */
class LimitFilesTest {
  @TempDir Path root;
  private FakeCpuTree tree;
  private final KernelLikeIo io = new KernelLikeIo();
  private final List<String> problems = new ArrayList<>();

  @BeforeEach
  void setUp() {
    tree = new FakeCpuTree(root).cpus(0, 0, 0, 0);
  }

  private LimitFiles files() {
    return new CpuSysfs(root, io).scaling(0);
  }

  @ParameterizedTest(name = "{0}..{1} -> {2}..{3}")
  @CsvSource({
    "800000, 1000000, 3000000, 3600000, 2",
    "3000000, 3600000, 800000, 1000000, 2",
    "1500000, 3000000, 800000, 2000000, 2",
    "800000, 2000000, 1500000, 3000000, 2",
    "800000, 3600000, 1000000, 2000000, 2",
    "1000000, 2000000, 800000, 3600000, 2",
    "1000000, 2000000, 1000000, 3000000, 1",
    "1000000, 2000000, 1000000, 2000000, 0",
  })
  void movesBetweenValidRangesAreAccepted(
      long fromMin, long fromMax, long toMin, long toMax, int writes) {
    tree.cpu(0, 0, 0, fromMin, fromMax);
    assertEquals(writes, files().apply(io, new Limits(toMin, toMax), problems));
    assertEquals(List.of(), problems);
    assertEquals(toMin + ".." + toMax, tree.scaling(0));
  }

  @Test
  void zeroLeavesALimitAlone() {
    tree.cpu(0, 0, 0, 1000000, 2000000);
    assertEquals(1, files().apply(io, new Limits(0, 3000000), problems));
    assertEquals("1000000..3000000", tree.scaling(0));
    assertEquals(0, files().apply(io, Limits.NONE, problems));
  }

  @Test
  void unreadableContentIsNamed() throws Exception {
    Files.writeString(tree.cpufreq(0, "scaling_min_freq"), "<unsupported>\n");
    assertEquals(0, files().apply(io, new Limits(1000000, 2000000), problems));
    assertEquals(
        List.of(
            tree.cpufreq(0, "scaling_min_freq")
                + ": unexpected content \"<unsupported>\", expected a number"),
        problems);
  }

  @Test
  void withoutHardwareBoundsTheValuesAreWrittenVerbatim() throws Exception {
    Files.delete(tree.cpufreq(0, "cpuinfo_max_freq"));
    assertEquals(1, files().apply(io, new Limits(0, 9000000), problems));
    assertEquals("800000..9000000", tree.scaling(0));
  }

  @Test
  void dieDirectoriesAreNamedAsTheKernelNamesThem() {
    assertEquals("package_00_die_00", new Die(0, 0).dirName());
    assertEquals("package_10_die_01", new Die(10, 1).dirName());
  }
}
