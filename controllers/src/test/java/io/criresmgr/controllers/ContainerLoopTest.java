package io.criresmgr.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.Container;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One container's failure does not stop the loop. */
class ContainerLoopTest {
  @Test
  void aFailureIsHandedOverAndTheLoopGoesOn() {
    List<Container> all =
        List.of(
            FakeNode.containerBuilder("p", "a").build(),
            FakeNode.containerBuilder("p", "b").build(),
            FakeNode.containerBuilder("p", "c").build());
    List<String> done = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    ContainerLoop.applyToEach(
        all,
        c -> {
          if (c.name().equals("b")) {
            throw new ControllerException("no cgroup");
          }
          done.add(c.name());
        },
        (c, e) -> failed.add(c.name() + ": " + e.getMessage()));
    assertEquals(List.of("a", "c"), done);
    assertEquals(List.of("b: no cgroup"), failed);
  }
}
