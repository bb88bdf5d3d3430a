package io.criresmgr.controllers.blockio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlockIoConfigTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  static final String SAMPLE =
      "{'Classes': {"
          + "'LowPrioThrottled': ["
          + "  {'Weight': 80},"
          + "  {'Devices': ['/dev/vd*', '/dev/sd*'], 'ThrottleReadBps': '50M',"
          + "   'ThrottleWriteBps': '10M', 'ThrottleReadIOPS': '10k', 'ThrottleWriteIOPS': '5k',"
          + "   'Weight': 50},"
          + "  {'Devices': ['/dev/disk/by-id/*SSD*'], 'ThrottleReadBps': '100M',"
          + "   'ThrottleWriteBps': '40M', 'Weight': 50}],"
          + "'HighPrioFullSpeed': [{'Weight': 400}],"
          + "'Default': [{'Weight': '100'}]}}";

  private static String error(String section) {
    return assertThrows(BlockIoException.class, () -> BlockIoConfig.parse(json(section)))
        .getMessage();
  }

  @Test
  void nriClassesMustBeConfiguredClasses() {
    BlockIoConfig c =
        BlockIoConfig.parse(
            json("{'Classes': {'Slow': [{'Weight': 80}], 'Fast': []}, 'NriClasses': ['Slow']}"));
    assertEquals(Set.of("Slow"), c.nriClasses());
    assertEquals(Set.of(), BlockIoConfig.parse(json(SAMPLE)).nriClasses());
    assertEquals(
        "blockio.NriClasses[1]: invalid value \"Gold\": expected one of the classes of"
            + " blockio.Classes (Slow, Fast)",
        error("{'Classes': {'Slow': [], 'Fast': []}, 'NriClasses': ['Fast', 'Gold']}"));
    assertEquals(
        "blockio.NriClasses[0]: invalid value \"Slow\": expected one of the classes of"
            + " blockio.Classes (none configured)",
        error("{'NriClasses': ['Slow']}"));
    assertEquals(
        "blockio.NriClasses: invalid value \"Slow\": expected a list of class names of"
            + " blockio.Classes",
        error("{'Classes': {'Slow': []}, 'NriClasses': 'Slow'}"));
  }

  @Test
  void parsesTheSampleConfiguration() {
    BlockIoConfig c = BlockIoConfig.parse(json(SAMPLE));
    assertEquals(
        List.of("LowPrioThrottled", "HighPrioFullSpeed", "Default"),
        List.copyOf(c.classes().keySet()));
    List<DeviceParameters> low = c.classes().get("LowPrioThrottled");
    assertEquals(
        new DeviceParameters(
            List.of(),
            OptionalLong.of(80),
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.empty()),
        low.get(0));
    assertEquals(
        new DeviceParameters(
            List.of("/dev/vd*", "/dev/sd*"),
            OptionalLong.of(50),
            OptionalLong.of(50_000_000),
            OptionalLong.of(10_000_000),
            OptionalLong.of(10_000),
            OptionalLong.of(5_000)),
        low.get(1));
    assertEquals(OptionalLong.empty(), low.get(2).throttleReadIops());
    assertEquals(OptionalLong.of(100), c.classes().get("Default").get(0).weight());
  }

  @Test
  void missingOrNullSectionHasNoClasses() {
    assertEquals(BlockIoConfig.empty(), BlockIoConfig.parse(MissingNode.getInstance()));
    assertEquals(BlockIoConfig.empty(), BlockIoConfig.parse(NullNode.getInstance()));
    assertTrue(
        BlockIoConfig.parse(json("{'Classes': {'Empty': []}}")).classes().get("Empty").isEmpty());
  }

  @Test
  void keysAreCaseInsensitiveAndQuantitiesHaveKubernetesForms() {
    BlockIoConfig c =
        BlockIoConfig.parse(
            json(
                "{'classes': {'c': [{'devices': ['/dev/sda'], 'throttlereadbps': '1.5Ki',"
                    + " 'THROTTLEWRITEBPS': '2Mi', 'ThrottleReadIOPS': 1e3,"
                    + " 'ThrottleWriteIOPS': '0.5', 'Weight': '1e2'}]}}"));
    DeviceParameters p = c.classes().get("c").get(0);
    assertEquals(OptionalLong.of(1536), p.throttleReadBps());
    assertEquals(OptionalLong.of(2 * 1024 * 1024), p.throttleWriteBps());
    assertEquals(OptionalLong.of(1000), p.throttleReadIops());
    assertEquals(OptionalLong.of(1), p.throttleWriteIops());
    assertEquals(OptionalLong.of(100), p.weight());
  }

  @Test
  void weightOutOfRange() {
    assertEquals(
        "blockio.Classes.LowPrio[1].Weight: invalid value 5: expected a weight 10..1000",
        error("{'Classes': {'LowPrio': [{'Weight': 100}, {'Weight': 5}]}}"));
    assertEquals(
        "blockio.Classes.c[0].Weight: invalid value \"2k\": expected a weight 10..1000",
        error("{'Classes': {'c': [{'Weight': '2k'}]}}"));
  }

  @Test
  void badQuantity() {
    assertEquals(
        "blockio.Classes.c[0].ThrottleReadBps: invalid value \"50MB\": expected a number with an"
            + " optional suffix Ki, Mi, Gi, Ti, Pi, Ei, k, M, G, T, P, E (e.g. 100, 50M, 10Mi, 5k),"
            + " at least 0",
        error("{'Classes': {'c': [{'Devices': ['/dev/sda'], 'ThrottleReadBps': '50MB'}]}}"));
    assertEquals(
        "blockio.Classes.c[0].ThrottleWriteIOPS: invalid value \"-5\": expected a number with an"
            + " optional suffix Ki, Mi, Gi, Ti, Pi, Ei, k, M, G, T, P, E (e.g. 100, 50M, 10Mi, 5k),"
            + " at least 0",
        error("{'Classes': {'c': [{'Devices': ['/dev/sda'], 'ThrottleWriteIOPS': '-5'}]}}"));
  }

  @Test
  void throttlingNeedsDevices() {
    assertEquals(
        "blockio.Classes.c[0]: throttling needs Devices: an entry without Devices may only set"
            + " the class's default Weight",
        error("{'Classes': {'c': [{'ThrottleReadBps': '50M'}]}}"));
  }

  @Test
  void structuralErrors() {
    assertEquals(
        "blockio.Klasses: unknown key, expected one of Classes, NriClasses",
        error("{'Klasses': {}}"));
    assertEquals(
        "blockio.Classes: invalid value [1]: expected a mapping of class name to a list of"
            + " entries",
        error("{'Classes': [1]}"));
    assertEquals(
        "blockio.Classes.c: invalid value {\"Weight\":10}: expected a list of entries",
        error("{'Classes': {'c': {'Weight': 10}}}"));
    assertEquals(
        "blockio.Classes.c[0].Device: unknown key, expected one of Devices, Weight,"
            + " ThrottleReadBps, ThrottleWriteBps, ThrottleReadIOPS, ThrottleWriteIOPS",
        error("{'Classes': {'c': [{'Device': ['/dev/sda']}]}}"));
    assertEquals(
        "blockio.Classes.c[0].weight: duplicate key (Weight is given twice, keys are"
            + " case-insensitive)",
        error("{'Classes': {'c': [{'Weight': 10, 'weight': 20}]}}"));
  }

  @Test
  void deviceErrors() {
    assertEquals(
        "blockio.Classes.c[0].Devices: invalid value \"/dev/sda\": expected a non-empty list of"
            + " device paths or globs",
        error("{'Classes': {'c': [{'Devices': '/dev/sda'}]}}"));
    assertEquals(
        "blockio.Classes.c[0].Devices[1]: invalid value \"sdb\": expected an absolute device"
            + " path or glob, e.g. /dev/sd*",
        error("{'Classes': {'c': [{'Devices': ['/dev/sda', 'sdb']}]}}"));
    assertEquals(
        "blockio.Classes.c[0].Devices[0]: invalid value \"/dev/sd[a\": unterminated [ in"
            + " \"sd[a\"",
        error("{'Classes': {'c': [{'Devices': ['/dev/sd[a']}]}}"));
  }
}
