package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** Container cache ids never collide, and kubelet's keep the form of earlier versions. */
class ContainerIdTest {
  @Test
  void kubernetesUidsAndNamesKeepTheirIds() {
    assertEquals(
        "6f1c2a9e-0b7d-4c1e-9a57-2f3b1d6e8c40:web",
        Container.cacheId("6f1c2a9e-0b7d-4c1e-9a57-2f3b1d6e8c40", "web"));
  }

  @Test
  void colonsInAUidOrANameCannotMakeTwoContainersOne() {
    assertNotEquals(Container.cacheId("a:b", "c"), Container.cacheId("a", "b:c"));
    assertEquals("a%3Ab:c", Container.cacheId("a:b", "c"));
    assertEquals("a:b%3Ac", Container.cacheId("a", "b:c"));
  }

  @Test
  void percentSignsAreEscapedToo() {
    assertNotEquals(Container.cacheId("a%3Ab", "c"), Container.cacheId("a:b", "c"));
    assertEquals("a%253Ab:c", Container.cacheId("a%3Ab", "c"));
  }
}
