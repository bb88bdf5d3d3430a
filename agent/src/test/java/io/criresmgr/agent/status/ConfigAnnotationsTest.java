package io.criresmgr.agent.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.agent.config.ChosenConfig;
import io.criresmgr.agent.push.ConfigStatus;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigAnnotationsTest {
  @Test
  void anAcceptedConfigMapNamesItAndRemovesTheError() {
    ConfigAnnotations a =
        ConfigAnnotations.of(
            ConfigStatus.accepted(ChosenConfig.of("cm.default", Map.of()).source()));
    assertEquals(new ConfigAnnotations("cm.default", Optional.empty()), a);
    assertEquals(
        "{\"metadata\":{\"annotations\":{"
            + "\"cri-resource-manager.intel.com/config-source\":\"cm.default\","
            + "\"cri-resource-manager.intel.com/config-error\":null}}}",
        a.mergePatch());
  }

  @Test
  void theEmptyConfigurationIsTheFallback() {
    String source = ChosenConfig.empty("no ConfigMap applies").source();
    assertEquals(
        new ConfigAnnotations("fallback", Optional.of("bad")),
        ConfigAnnotations.of(ConfigStatus.rejected(source, "bad")));
  }

  @Test
  void aLongErrorIsTruncatedTo1000Characters() {
    String error = "x".repeat(999) + "yz";
    ConfigAnnotations a = ConfigAnnotations.of(ConfigStatus.rejected("ConfigMap m", error));
    assertEquals(Optional.of("x".repeat(999) + "y"), a.error());
    assertEquals(
        "{\"metadata\":{\"annotations\":{"
            + "\"cri-resource-manager.intel.com/config-source\":\"m\","
            + "\"cri-resource-manager.intel.com/config-error\":\"x\"}}}",
        ConfigAnnotations.of(ConfigStatus.rejected("ConfigMap m", "x")).mergePatch());
  }

  @Test
  void aPendingStatusHasNoAnnotations() {
    assertThrows(IllegalArgumentException.class, () -> ConfigAnnotations.of(ConfigStatus.PENDING));
  }
}
