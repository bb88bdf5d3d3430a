package io.criresmgr.dist;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The distribution's NOTICE as dist/src/license/notice.ftl writes it: the repository's NOTICE, a
 * blank line, then after {@link #LIST} one line "groupId:artifactId:version: licences" per jar.
 */
record Notice(String header, List<Notice.Jar> jars) {
  static final String LIST = "The directory lib/ holds ";
  private static final Pattern LINE = Pattern.compile("([\\w.-]+):([\\w.-]+):([\\w.+-]+): (.+)");

  /** One listed jar; a jar file with a classifier shares the entry of its artifact. */
  record Jar(String groupId, String artifactId, String version, String licences) {
    String gav() {
      return groupId + ":" + artifactId + ":" + version;
    }

    boolean matches(String fileName) {
      String stem = artifactId + "-" + version;
      return fileName.equals(stem + ".jar")
          || (fileName.startsWith(stem + "-") && fileName.endsWith(".jar"));
    }
  }

  static Notice parse(String text) {
    int list = text.indexOf("\n" + LIST);
    if (list < 0) {
      throw new IllegalArgumentException("NOTICE has no line starting '" + LIST + "'");
    }
    List<Jar> jars = new ArrayList<>();
    for (String line : text.substring(list + 1).split("\n", -1)) {
      Matcher m = LINE.matcher(line);
      if (m.matches()) {
        jars.add(new Jar(m.group(1), m.group(2), m.group(3), m.group(4)));
      }
    }
    return new Notice(text.substring(0, list), jars);
  }
}
