package io.criresmgr.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.Pod;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Warnings logged once per pod, to the owner's logger, until the pod is forgotten. */
class PodWarningsTest {
  private final LogCapture log = LogCapture.of(PodWarningsTest.class);
  private final PodWarnings warnings =
      new PodWarnings(LoggerFactory.getLogger(PodWarningsTest.class), "test:");
  private final Pod pod = FakeNode.podBuilder("p").build();

  @AfterEach
  void releaseLog() {
    log.close();
  }

  @Test
  void eachWarningIsLoggedOncePerPodToTheOwnersLogger() {
    warnings.warn(pod, List.of("a", "b"));
    warnings.warn(pod, List.of("b", "c"));
    warnings.warn(FakeNode.podBuilder("q").build(), List.of("a"));
    assertEquals(
        List.of(
            "test: pod default/pod-p: a",
            "test: pod default/pod-p: b",
            "test: pod default/pod-p: c",
            "test: pod default/pod-q: a"),
        log.messages());
  }

  @Test
  void aForgottenPodIsWarnedAboutAgain() {
    FakeNode node = new FakeNode().add(pod);
    warnings.warn(pod, List.of("a"));
    warnings.forgetGone(node);
    warnings.warn(pod, List.of("a"));
    node.removePod("p");
    warnings.forgetGone(node);
    warnings.warn(pod, List.of("a"));
    warnings.forget("p");
    warnings.warn(pod, List.of("a"));
    warnings.clear();
    warnings.warn(pod, List.of("a"));
    assertEquals(4, log.messages().size(), log.messages()::toString);
  }

  @Test
  void podWithoutWarningsLogsNothing() {
    warnings.warn(pod, List.of());
    assertEquals(List.of(), log.messages());
  }
}
