package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BalloonTypeChooserTest {
  private static final String CONFIG =
      """
      ReservedPoolNamespaces: ["infra-*"]
      BalloonTypes:
        - {Name: batch, Namespaces: ["batch-*"]}
        - Name: db
          MatchExpressions: [{key: pod/labels/app, operator: In, values: [postgres, mysql]}]
        - {Name: catchall, Namespaces: ["*"]}
      """;

  private static Pod pod(String namespace, Map<String, String> labels, Map<String, String> ann) {
    return new Pod(
        "sandbox-p",
        "uid-p",
        "p",
        namespace,
        labels,
        ann,
        "/kubepods/podp",
        QosClass.GUARANTEED,
        PodResources.NONE,
        true);
  }

  private static Container container(Pod pod, String name) {
    return Container.builder()
        .cacheId(Container.cacheId(pod.uid(), name))
        .podId(pod.id())
        .name(name)
        .namespace(pod.namespace())
        .image("busybox")
        .state(ContainerState.CREATING)
        .resources(Resources.NONE)
        .qosClass(pod.qosClass())
        .seq(1)
        .build();
  }

  private static String choose(String config, Pod pod) throws Exception {
    BalloonTypeChooser chooser = new BalloonTypeChooser(parse(config));
    return chooser.choose(container(pod, "c0"), pod).name();
  }

  @Test
  void namespacesDecideInOrderReservedDefaultThenTheConfiguredTypes() throws Exception {
    assertEquals("reserved", choose(CONFIG, pod("kube-system", Map.of(), Map.of())));
    assertEquals("reserved", choose(CONFIG, pod("infra-logs", Map.of(), Map.of())));
    assertEquals("batch", choose(CONFIG, pod("batch-nightly", Map.of(), Map.of())));
    assertEquals("catchall", choose(CONFIG, pod("web", Map.of(), Map.of())));
  }

  @Test
  void matchExpressionsSelectATypeBeforeLaterNamespaceGlobs() throws Exception {
    assertEquals("db", choose(CONFIG, pod("web", Map.of("app", "postgres"), Map.of())));
  }

  @Test
  void withoutAnyMatchTheDefaultTypeIsChosen() throws Exception {
    assertEquals(
        "default",
        choose("BalloonTypes: [{Name: a, Namespaces: [a]}]", pod("web", Map.of(), Map.of())));
  }

  @Test
  void theAnnotationWinsInEitherSpellingContainerScopeFirst() throws Exception {
    Pod annotated =
        pod(
            "kube-system",
            Map.of(),
            Map.of(
                "balloon.balloons.cri-resource-manager.intel.com/pod", "batch",
                "balloon.balloons.resource-policy.nri.io/container.c0", "db"));
    assertEquals("db", choose(CONFIG, annotated));
    Pod nri = pod("web", Map.of(), Map.of("balloon.balloons.resource-policy.nri.io", "reserved"));
    assertEquals("reserved", choose(CONFIG, nri));
  }

  @Test
  void anUnknownAnnotatedTypeFailsNamingTheAnnotationAndTheTypes() {
    Pod annotated =
        pod("web", Map.of(), Map.of("balloon.balloons.cri-resource-manager.intel.com/pod", "gpu"));
    PolicyException e = assertThrows(PolicyException.class, () -> choose(CONFIG, annotated));
    assertEquals(
        "annotation balloon.balloons.cri-resource-manager.intel.com/pod: invalid value \"gpu\": no"
            + " balloon type of that name; the types are reserved, default, batch, db, catchall",
        e.getMessage());
  }
}
