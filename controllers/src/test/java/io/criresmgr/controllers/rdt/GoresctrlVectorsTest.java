package io.criresmgr.controllers.rdt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schemata computed for the situations of goresctrl's {@code pkg/rdt} configuration tests (20-bit
 * L3 mask, 4 cache ids), expecting the masks and bandwidths goresctrl writes there.
 */
class GoresctrlVectorsTest {
  @TempDir Path dir;

  /** JSON with single quotes, to keep the configurations readable. */
  private static RdtConfig config(String text) throws Exception {
    return RdtConfig.parse(RdtConfigTest.json(text.replace('\'', '"')));
  }

  private Map<String, List<String>> schemata(String text, int minCbmBits) throws Exception {
    return Schemata.of(config(text), Resctrl.discover(FakeResctrl.wide(dir, minCbmBits)));
  }

  private String error(String text, int minCbmBits) throws Exception {
    RdtConfig c = config(text);
    Resctrl r = Resctrl.discover(FakeResctrl.wide(dir, minCbmBits));
    return assertThrows(RdtException.class, () -> Schemata.of(c, r)).getMessage();
  }

  @Test
  void percentagesBitmasksAndBitListsPerCacheId() throws Exception {
    // Cache ids 0 and 3: 1%, 39% and 60% of 20 bits are granted smallest first (1 bit, then
    // 39% of the 19 left = 7, the largest takes the other 12) and laid out in name order.
    String c =
        "{'partitions': {"
            + "'part-1': {'l3Allocation': {'all': '60%', '1': '0xff000', '2': '9-15'},"
            + " 'mbAllocation': {'all': ['100%']}, 'classes': {"
            + "  'class-1': {'l3Allocation': '100%'},"
            + "  'class-2': {'l3Allocation': {'all': '100%', '0-1': '10%', '2': '0x70'},"
            + "   'mbAllocation': {'all': ['40%'], '3': ['10%']}}}},"
            + "'part-2': {'l3Allocation': {'all': '39%', '1': '0-10', '2': '0-6'},"
            + " 'mbAllocation': {'all': ['50%'], '1': ['80%'], '2': ['100%']}, 'classes': {"
            + "  'class-3': {'l3Allocation': '100%', 'mbAllocation': {'all': ['40%'], '0': ['80%']}},"
            + "  'class-4': {'l3Allocation': '50%', 'mbAllocation': ['100%']},"
            + "  'SYSTEM_DEFAULT': {'l3Allocation': '60%', 'mbAllocation': ['60%']}}},"
            + "'part-3': {'l3Allocation': {'all': '1%', '1': '0x800', '2': '7,8'},"
            + " 'mbAllocation': ['20%'], 'classes': {"
            + "  'class-5': {'l3Allocation': '100%', 'mbAllocation': {'all': ['100%'], '0': ['1%']}}}}}}";
    Map<String, List<String>> s = schemata(c, 1);
    assertEquals(
        List.of("L3:0=fff;1=ff000;2=fe00;3=fff", "MB:0=100;1=100;2=100;3=100"), s.get("class-1"));
    assertEquals(List.of("L3:0=3;1=1000;2=e000;3=fff", "MB:0=40;1=40;2=40;3=10"), s.get("class-2"));
    assertEquals(
        List.of("L3:0=7f000;1=7ff;2=7f;3=7f000", "MB:0=40;1=32;2=40;3=20"), s.get("class-3"));
    assertEquals(List.of("L3:0=f000;1=3f;2=f;3=f000", "MB:0=50;1=80;2=100;3=50"), s.get("class-4"));
    assertEquals(
        List.of("L3:0=1f000;1=7f;2=1f;3=1f000", "MB:0=30;1=48;2=60;3=30"), s.get("SYSTEM_DEFAULT"));
    assertEquals(
        List.of("L3:0=80000;1=800;2=180;3=80000", "MB:0=10;1=20;2=20;3=20"), s.get("class-5"));
  }

  @Test
  void classPercentagesAndBitmasksMix() throws Exception {
    Map<String, List<String>> s =
        schemata(
            "{'partitions': {'part-1': {'l3Allocation': '100%', 'classes': {"
                + "'class-1': {'l3Allocation': {'all': '100%', '1': '50%'}},"
                + "'class-2': {'l3Allocation': {'all': '50%', '1': '0x7', '2': '1-2'}}}}}}",
            2);
    assertEquals(List.of("L3:0=fffff;1=3ff;2=fffff;3=fffff"), s.get("class-1"));
    assertEquals(List.of("L3:0=3ff;1=7;2=6;3=3ff"), s.get("class-2"));
  }

  @Test
  void classSlicesAreWidenedToMinCbmBits() throws Exception {
    // 1% is bit 0 only, widened upwards; 99-100% is bit 19 only, widened downwards.
    assertEquals(
        Map.of("class-1", List.of("L3:0=3;1=c0000;2=c0000;3=3")),
        schemata(
            "{'partitions': {'part-1': {'l3Allocation': '100%', 'classes': {"
                + "'class-1': {'l3Allocation': {'all': '1%', '1-2': '99-100%'}}}}}}",
            2));
  }

  @Test
  void bandwidthBelowTheMinimumIsRaised() throws Exception {
    assertEquals(
        Map.of("class-1", List.of("MB:0=10;1=10;2=10;3=10")),
        schemata(
            "{'partitions': {'part-1': {'mbAllocation': ['1%'], 'classes': {"
                + "'class-1': {'mbAllocation': ['100%']}}}}}",
            1));
  }

  @Test
  void aSinglePartitionTakesTheWholeCache() throws Exception {
    assertEquals(
        Map.of("c", List.of("L3:0=fffff;1=fffff;2=fffff;3=fffff")),
        schemata("{'partitions': {'p': {'l3Allocation': '50%', 'classes': {'c': {}}}}}", 1));
  }

  @Test
  void refusedConfigurations() throws Exception {
    assertEquals(
        "rdt partitions: L3 allocations of cache id 0 mix bitmasks and percentages, use one kind"
            + " for all partitions",
        error("{'partitions': {'p': {'l3Allocation': '0xff'}, 'q': {'l3Allocation': '50%'}}}", 1));
    assertEquals(
        "rdt partition q: L3 allocation 0xff80 overlaps another partition's on cache id 2",
        error(
            "{'partitions': {'p': {'l3Allocation': '0xff'},"
                + " 'q': {'l3Allocation': {'all': '0xff00', '2': '0xff80'}}}}",
            1));
    assertEquals(
        "rdt partition p: L3 allocation 50-100%: percentage ranges are not supported for"
            + " partitions",
        error("{'partitions': {'p': {'l3Allocation': '50-100%'}}}", 1));
    assertEquals(
        "rdt partitions: l3Allocation is given for some partitions only, give it for all or none",
        error(
            "{'partitions': {'p': {'l3Allocation': '50%', 'mbAllocation': ['100%']},"
                + " 'q': {'mbAllocation': ['100%']}}}",
            1));
    assertEquals(
        "rdt class c: L3 allocation 0x1ff (1ff00 shifted to the partition) does not fit its"
            + " partition's mask ff00",
        error(
            "{'partitions': {'p': {'l3Allocation': '0xff00', 'classes': {'c': {'l3Allocation':"
                + " '0x1ff'}}}}}",
            1));
    assertEquals(
        "rdt partition p: class c has l3Allocation but the partition has none",
        error("{'partitions': {'p': {'classes': {'c': {'l3Allocation': '100%'}}}}}", 1));
    assertEquals(
        "rdt partition p: class c has mbAllocation but the partition has none",
        error("{'partitions': {'p': {'classes': {'c': {'mbAllocation': ['100%']}}}}}", 1));
  }

  @Test
  void malformedValuesAreRefusedWhenParsed() {
    for (String bad : List.of("0x2f", "101%", "1f%", "0-101%", "13-13", "64", "1,2,,3")) {
      assertEquals(
          "rdt.partitions.p.l3Allocation: invalid value \"" + bad + "\": " + CacheSpec.ALLOWED,
          assertThrows(
                  RdtException.class,
                  () -> config("{'partitions': {'p': {'l3Allocation': '" + bad + "'}}}"))
              .getMessage(),
          bad);
    }
  }
}
