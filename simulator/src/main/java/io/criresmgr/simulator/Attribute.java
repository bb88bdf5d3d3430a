package io.criresmgr.simulator;

import java.util.Comparator;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a verify step can say about a container, named as the reference e2e {@code verify} state
 * names its items: {@code cpu4}, {@code node1} (NUMA nodes of the CPUs, and memory nodes), {@code
 * package0}, {@code package0/die0}, {@code node1/core2} (core id from sysfs), {@code
 * node1/core2/thread0}. Leading zeros are ignored ({@code cpu08} is {@code cpu8}).
 */
enum Attribute {
  CPUS("cpu", "cpu\\d+"),
  MEMS("node", "node\\d+"),
  NODES("node", "node\\d+"),
  PACKAGES("package", "package\\d+"),
  DIES("", "package\\d+/die\\d+"),
  CORES("", "node\\d+/core\\d+"),
  THREADS("", "node\\d+/core\\d+/thread\\d+");

  private static final Pattern LEADING_ZEROS = Pattern.compile("(?<!\\d)0+(?=\\d)");
  private static final Pattern NUMBER = Pattern.compile("\\d+");

  /** Orders names with their numbers compared as numbers ({@code cpu2} before {@code cpu10}). */
  static final Comparator<String> NATURAL = Attribute::compareNatural;

  private final String prefix;
  private final Pattern form;

  Attribute(String prefix, String form) {
    this.prefix = prefix;
    this.form = Pattern.compile(form);
  }

  /** The key in scenario files, e.g. {@code cpus}. */
  String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a key such as {@code cpus}; null if it names no attribute. */
  static @Nullable Attribute byKey(String key) {
    for (Attribute a : values()) {
      if (a.key().equals(key)) {
        return a;
      }
    }
    return null;
  }

  /**
   * The canonical name of an item written as a number ({@code 4}: {@code cpu4}) or a name.
   *
   * @throws IllegalArgumentException if it is neither, naming the expected form
   */
  String canonical(String written) {
    String text = written.trim();
    if (NUMBER.matcher(text).matches()) {
      if (prefix.isEmpty()) {
        throw new IllegalArgumentException(
            key() + " items are names such as " + example() + ", not numbers");
      }
      text = prefix + text;
    }
    String name = LEADING_ZEROS.matcher(text).replaceAll("");
    if (!form.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "\"" + written + "\" is not a " + key() + " item, expected e.g. " + example());
    }
    return name;
  }

  private String example() {
    return switch (this) {
      case CPUS -> "4 or cpu04";
      case MEMS, NODES -> "1 or node1";
      case PACKAGES -> "0 or package0";
      case DIES -> "package0/die0";
      case CORES -> "node1/core2";
      case THREADS -> "node1/core2/thread0";
    };
  }

  private static int compareNatural(String a, String b) {
    Matcher ma = NUMBER.matcher(a);
    Matcher mb = NUMBER.matcher(b);
    int ia = 0;
    int ib = 0;
    while (ma.find(ia) && mb.find(ib)) {
      int text = a.substring(ia, ma.start()).compareTo(b.substring(ib, mb.start()));
      if (text != 0) {
        return text;
      }
      int number = Long.compare(Long.parseLong(ma.group()), Long.parseLong(mb.group()));
      if (number != 0) {
        return number;
      }
      ia = ma.end();
      ib = mb.end();
    }
    return a.substring(ia).compareTo(b.substring(ib));
  }
}
