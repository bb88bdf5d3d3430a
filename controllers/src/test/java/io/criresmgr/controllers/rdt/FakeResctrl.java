package io.criresmgr.controllers.rdt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds a resctrl-like tree: 2 L3 caches with an 11-bit mask, MB with 10% steps. */
final class FakeResctrl {
  private FakeResctrl() {}

  static Path create(Path root) throws IOException {
    write(root.resolve("info/L3/cbm_mask"), "7ff\n");
    write(root.resolve("info/L3/min_cbm_bits"), "2\n");
    write(root.resolve("info/L3/num_closids"), "16\n");
    write(root.resolve("info/MB/min_bandwidth"), "10\n");
    write(root.resolve("info/MB/bandwidth_gran"), "10\n");
    write(root.resolve("info/MB/num_closids"), "8\n");
    write(root.resolve("schemata"), "    L3:0=7ff;1=7ff\n    MB:0=100;1=100\n");
    write(root.resolve("tasks"), "");
    return root;
  }

  /**
   * A tree like goresctrl's test data: 4 L3 caches with a 20-bit mask ({@code fffff}), MB with a
   * 10% minimum, 16 CLOSIDs.
   */
  static Path wide(Path root, int minCbmBits) throws IOException {
    write(root.resolve("info/L3/cbm_mask"), "fffff\n");
    write(root.resolve("info/L3/min_cbm_bits"), minCbmBits + "\n");
    write(root.resolve("info/L3/num_closids"), "16\n");
    write(root.resolve("info/MB/min_bandwidth"), "10\n");
    write(root.resolve("info/MB/bandwidth_gran"), "10\n");
    write(root.resolve("info/MB/num_closids"), "16\n");
    write(
        root.resolve("schemata"),
        "L3:0=fffff;1=fffff;2=fffff;3=fffff\nMB:0=100;1=100;2=100;3=100\n");
    write(root.resolve("tasks"), "");
    return root;
  }

  static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
