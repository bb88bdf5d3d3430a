package io.criresmgr.controllers.memtierd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.FakeNode;
import io.criresmgr.controllers.cgroups.FakeCgroupTree;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What memtierd controller tests share: a {@link FakeMemtierd}, a run dir, fake cgroup trees with
 * the cgroups of containers c0, c1 and c2 of pod {@code default/pod0} (on {@link FakeCgroupTree}s),
 * a {@link FakeNode} and sections.
 */
final class MemtierdFixture {
  static final String TEMPLATE = "cgroups: [$CGROUP2_ABS_PATH]\nstats: $MEMTIERD_SWAP_STATS_PATH\n";
  static final String POD_ID = "sandbox-0";
  static final String PARENT = "kubepods/burstable/poduid-0";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> CONTAINERS = List.of("c0", "c1", "c2");

  final Path tmp;
  final FakeMemtierd fake;
  final Path runDir;
  final FakeNode node = new FakeNode();

  private MemtierdFixture(Path tmp, FakeMemtierd fake) {
    this.tmp = tmp;
    this.fake = fake;
    this.runDir = tmp.resolve("run");
  }

  static MemtierdFixture create(Path tmp) throws IOException {
    return new MemtierdFixture(tmp, FakeMemtierd.install(tmp.resolve("bin")));
  }

  /** A cgroup v2 mount with the containers' cgroups. */
  Path v2() {
    return containerCgroups(FakeCgroupTree.v2(tmp.resolve("v2"), "cpuset cpu io memory pids"));
  }

  /** v1 hierarchies plus {@code unified/} enabling no controllers, with the containers' cgroups. */
  Path hybrid() {
    return containerCgroups(FakeCgroupTree.hybrid(tmp.resolve("v1"), ""));
  }

  /** v1 hierarchies only, without the containers' cgroups. */
  Path v1() {
    return FakeCgroupTree.v1(tmp.resolve("v1")).root;
  }

  private static Path containerCgroups(FakeCgroupTree tree) {
    for (String c : CONTAINERS) {
      tree.cgroup(PARENT + "/ctr-" + c);
    }
    return tree.root;
  }

  /** A class of the section. */
  static ObjectNode memtierdClass(String name, @Nullable Boolean allowSwap, @Nullable String tpl) {
    ObjectNode c = JSON.createObjectNode().put("name", name);
    if (allowSwap != null) {
      c.put("allowswap", allowSwap);
    }
    if (tpl != null) {
      c.put("memtierdconfig", tpl);
    }
    return c;
  }

  /** A section with the fake binary, the run dir and {@code classes}. */
  ObjectNode section(ObjectNode... classes) {
    ObjectNode s = JSON.createObjectNode();
    s.put("binary", fake.binary().toString()).put("rundir", runDir.toString());
    s.putArray("classes").addAll(List.of(classes));
    return s;
  }

  /** The default section: swap-idle-data (swap, template) and noswap (no swap, no template). */
  ObjectNode section() {
    return section(
        memtierdClass("swap-idle-data", true, TEMPLATE), memtierdClass("noswap", false, null));
  }

  /** A context on {@code cgroupMount} with {@code section} (none if null) and the node. */
  ControllerContext context(Path cgroupMount, @Nullable JsonNode section) {
    Map<String, JsonNode> sections =
        section == null ? Map.of() : Map.of(MemtierdConfig.SECTION, section);
    return new ControllerContext(Path.of(""), cgroupMount, sections, node);
  }

  /** Pod {@code default/pod0} with {@code annotations}, put into the node. */
  Pod pod(Map<String, String> annotations) {
    return node.put(
        FakeNode.podBuilder(POD_ID)
            .uid("uid-0")
            .name("pod0")
            .annotations(annotations)
            .cgroupParent("/" + PARENT)
            .qos(QosClass.BURSTABLE)
            .build());
  }

  /** Container {@code name} of pod0 with runtime id {@code ctr-<name>}, put into the node. */
  Container container(String name, ContainerState state) {
    return node.put(
        FakeNode.containerBuilder(POD_ID, name)
            .podUid("uid-0")
            .id("ctr-" + name)
            .state(state)
            .build());
  }

  /** The output directory of container {@code name}. */
  Path dir(String name) {
    return runDir.resolve("default/pod0").resolve(name);
  }

  /** The pid of container {@code name}'s memtierd. */
  long pid(String name) {
    return FakeMemtierd.pidIn(dir(name).resolve("memtierd.pid"));
  }
}
