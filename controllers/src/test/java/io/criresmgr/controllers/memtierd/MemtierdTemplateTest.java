package io.criresmgr.controllers.memtierd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MemtierdTemplateTest {
  private static final MemtierdContainer CTR = new MemtierdContainer("default", "pod0", "c0");
  private static final MemtierdFiles FILES = MemtierdFiles.of(Path.of("/var/run/mt"), CTR);

  @Test
  void filesLiveInTheContainersDirectory() {
    assertEquals(Path.of("/var/run/mt/default/pod0/c0"), FILES.dir());
    assertEquals(Path.of("/var/run/mt/default/pod0/c0/memtierd.config.yaml"), FILES.config());
    assertEquals(Path.of("/var/run/mt/default/pod0/c0/memtierd.output"), FILES.output());
    assertEquals(Path.of("/var/run/mt/default/pod0/c0/memtierd.pid"), FILES.pid());
    assertEquals(Path.of("/var/run/mt/default/pod0/c0/memtierd.stats"), FILES.stats());
  }

  @Test
  void substitutesEveryOccurrenceLiterally() {
    String template =
        """
        cgroups:
        - $CGROUP2_ABS_PATH
        - $CGROUP2_ABS_PATH/sub
        stats: $MEMTIERD_SWAP_STATS_PATH
        other: $HOME
        """;
    assertEquals(
        """
        cgroups:
        - /sys/fs/cgroup/k.slice/cri-containerd-ab$1.scope
        - /sys/fs/cgroup/k.slice/cri-containerd-ab$1.scope/sub
        stats: /var/run/mt/default/pod0/c0/memtierd.stats
        other: $HOME
        """,
        MemtierdTemplate.render(
            template, "/sys/fs/cgroup/k.slice/cri-containerd-ab$1.scope", FILES));
  }

  @Test
  void aSubstitutedValueIsNotSubstitutedAgain() {
    assertEquals(
        "x $MEMTIERD_SWAP_STATS_PATH",
        MemtierdTemplate.render("x $CGROUP2_ABS_PATH", "$MEMTIERD_SWAP_STATS_PATH", FILES));
  }

  @Test
  void anUnknownCgroupIsEmptyAsInTheOriginal() {
    assertEquals("cgroups: []", MemtierdTemplate.render("cgroups: [$CGROUP2_ABS_PATH]", "", FILES));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "..", "a/b", "a\0b"})
  void namesMustBeSinglePathSegments(String bad) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new MemtierdContainer("ns", bad, "c"));
    assertEquals(
        "pod \"" + bad + "\" is not a single path segment (not empty, . or .., no / or NUL)",
        e.getMessage());
  }
}
