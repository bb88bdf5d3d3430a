package io.criresmgr.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConfigMapNamesTest {
  private final ConfigMapNames names = new ConfigMapNames("ns", "cfg", "label", "worker-1");

  @Test
  void namesFollowCriResmgrsScheme() {
    assertEquals("cfg.node.worker-1", names.nodeMap());
    assertEquals("cfg.group.gpu", names.groupMap("gpu"));
    assertEquals("cfg.default", names.defaultMap());
  }

  @Test
  void onlyNamesUnderTheBaseNameAreCandidates() {
    assertTrue(names.isCandidate("cfg.group.x"));
    assertFalse(names.isCandidate("cfg"));
    assertFalse(names.isCandidate("cfgx.default"));
  }

  @Test
  void anEmptyNodeNameIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new ConfigMapNames("ns", "c", "l", ""));
    assertEquals("node name must not be empty", e.getMessage());
  }
}
