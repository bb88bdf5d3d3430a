package io.criresmgr.controllers.blockio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds a fake host tree with {@code /dev} nodes and their sysfs entries under a root. */
final class FakeBlockDevices {
  private final Path root;

  FakeBlockDevices(Path root) {
    this.root = root;
  }

  Path root() {
    return root;
  }

  /**
   * A whole disk {@code /dev/<name>} with {@code /sys/class/block/<name>/dev}, its scheduler file
   * {@code /sys/block/<name>/queue/scheduler} and the link {@code /sys/dev/block/<majMin>} to
   * {@code /sys/block/<name>}.
   */
  FakeBlockDevices disk(String name, String majMin, String scheduler) {
    write("dev/" + name, "");
    write("sys/class/block/" + name + "/dev", majMin + "\n");
    scheduler(name, scheduler);
    return symlink("/sys/dev/block/" + majMin, "../../block/" + name);
  }

  /** Sets the content of disk {@code name}'s scheduler file, e.g. {@code [bfq] none}. */
  FakeBlockDevices scheduler(String name, String scheduler) {
    write("sys/block/" + name + "/queue/scheduler", scheduler + "\n");
    return this;
  }

  /** A partition {@code /dev/<name>} of some disk. */
  FakeBlockDevices partition(String name, String majMin) {
    write("dev/" + name, "");
    write("sys/class/block/" + name + "/dev", majMin + "\n");
    write("sys/class/block/" + name + "/partition", "1\n");
    return this;
  }

  /** A file under {@code /dev} without a sysfs block entry, like a character device. */
  FakeBlockDevices other(String name) {
    write("dev/" + name, "");
    return this;
  }

  /** A symlink {@code link} (host path) to {@code target} (as stored in the link). */
  FakeBlockDevices symlink(String link, String target) {
    try {
      Path p = root.resolve(link.substring(1));
      Files.createDirectories(p.getParent());
      Files.createSymbolicLink(p, Path.of(target));
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void write(String relative, String content) {
    try {
      Path p = root.resolve(relative);
      Files.createDirectories(p.getParent());
      Files.writeString(p, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
