package io.criresmgr.controllers.cgroups;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.controllers.FakeNode;
import java.util.Set;

/**
 * The pod of the cgroups controller tests ({@value #SANDBOX}, burstable, uid {@code pod1-uid}) and
 * its containers, on a shared {@link FakeNode}.
 */
final class CgroupsFixture {
  static final String SANDBOX = "sandbox-1";

  private CgroupsFixture() {}

  /** A node of the pod with {@code cgroupParent} and {@code containers}. */
  static FakeNode withParent(String cgroupParent, Container... containers) {
    FakeNode node = new FakeNode();
    node.add(
        FakeNode.podBuilder(SANDBOX)
            .uid("pod1-uid")
            .name("pod1")
            .cgroupParent(cgroupParent)
            .qos(QosClass.BURSTABLE)
            .build());
    for (Container c : containers) {
      node.add(c);
    }
    return node;
  }

  /** A container of the pod with runtime id and name {@code id}. */
  static Container container(
      String id,
      ContainerState state,
      LinuxResources requested,
      Assignment assignment,
      Set<String> pending) {
    return FakeNode.containerBuilder(SANDBOX, id)
        .podUid("pod1-uid")
        .id(id)
        .state(state)
        .requested(requested)
        .assignment(assignment)
        .pending(pending)
        .build();
  }

  /** A running container of the pod, pinned to {@code cpus}, nothing pending. */
  static Container running(String id, LinuxResources requested, String cpus) {
    Assignment pinned = Assignment.NONE.withCpus(CpuSet.parse(cpus));
    return container(id, ContainerState.RUNNING, requested, pinned, Set.of());
  }
}
