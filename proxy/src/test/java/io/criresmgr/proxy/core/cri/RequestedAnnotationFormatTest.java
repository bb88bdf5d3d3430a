package io.criresmgr.proxy.core.cri;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.LinuxResources;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link RequestedAnnotation#format} writes its JSON by hand; this property test checks, for many
 * random requests, that the text is exactly what the Jackson tree it replaced wrote (so annotations
 * of containers created before and after the change look the same) and that it parses back.
 */
class RequestedAnnotationFormatTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** The former implementation of {@link RequestedAnnotation#format}, the reference. */
  private static String jackson(LinuxResources requested) {
    ObjectNode v = JSON.createObjectNode().put("v", RequestedAnnotation.VERSION);
    putIfSet(v, "shares", requested.cpuShares());
    putIfSet(v, "quota", requested.cpuQuota());
    putIfSet(v, "period", requested.cpuPeriod());
    putIfSet(v, "memory", requested.memoryLimitBytes());
    putIfSet(v, "cpus", requested.cpusetCpus());
    putIfSet(v, "mems", requested.cpusetMems());
    if (!requested.unified().isEmpty()) {
      ObjectNode u = v.putObject("unified");
      new TreeMap<>(requested.unified()).forEach(u::put);
    }
    return v.toString();
  }

  private static void putIfSet(ObjectNode v, String key, long value) {
    if (value != 0) {
      v.put(key, value);
    }
  }

  private static void putIfSet(ObjectNode v, String key, String value) {
    if (!value.isEmpty()) {
      v.put(key, value);
    }
  }

  @Test
  void writesWhatJacksonWroteForRandomRequests() {
    Random random = new Random(20);
    for (int i = 0; i < 20_000; i++) {
      LinuxResources r = randomResources(random);
      String text = RequestedAnnotation.format(r);
      assertEquals(jackson(r), text, () -> "for " + r);
      if (r.cpuQuota() >= -1
          && r.cpuPeriod() >= 0
          && r.cpuShares() >= 0
          && r.memoryLimitBytes() >= 0
          && text.length() <= RequestedAnnotation.MAX_LENGTH) {
        assertEquals(r, RequestedAnnotation.parse(text), () -> "round trip of " + text);
      }
    }
  }

  @Test
  void escapesEveryControlCharacterAsJacksonDoes() {
    for (char c = 0; c < 0x80; c++) {
      LinuxResources r =
          new LinuxResources(0, 0, 0, 0, "a" + c + "b", "", Map.of(c + "k", "v" + c));
      assertEquals(jackson(r), RequestedAnnotation.format(r), "character " + (int) c);
      assertEquals(r, RequestedAnnotation.parse(RequestedAnnotation.format(r)));
    }
  }

  private static LinuxResources randomResources(Random random) {
    Map<String, String> unified = new HashMap<>();
    int files = random.nextInt(4) == 0 ? random.nextInt(5) : 0;
    for (int i = 0; i < files; i++) {
      unified.put(randomText(random), randomText(random));
    }
    return new LinuxResources(
        randomAmount(random),
        randomAmount(random),
        randomAmount(random),
        randomAmount(random),
        random.nextBoolean() ? "" : randomText(random),
        random.nextBoolean() ? "" : randomText(random),
        unified);
  }

  private static long randomAmount(Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> 0;
      case 1 -> -1;
      case 2 -> random.nextInt(1_000_000);
      case 3 -> random.nextLong();
      case 4 -> random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
      default -> 1L << random.nextInt(63);
    };
  }

  /** Short text of CPU lists, cgroup file names, JSON's special characters and any UTF-16 unit. */
  private static String randomText(Random random) {
    String pool = "0123456789-,.abcxyz_ \"\\/\b\t\n\f\r\u0000\u001f\u007f\u00e9\u2028\u20ac";
    StringBuilder s = new StringBuilder();
    int length = random.nextInt(12);
    for (int i = 0; i < length; i++) {
      s.append(
          switch (random.nextInt(8)) {
            case 0 -> (char) random.nextInt(0x20);
            case 1 -> (char) random.nextInt(Character.MAX_VALUE + 1); // lone surrogates too
            case 2 -> new String(Character.toChars(0x1F600 + random.nextInt(80)));
            default -> pool.charAt(random.nextInt(pool.length()));
          });
    }
    return s.toString();
  }
}
