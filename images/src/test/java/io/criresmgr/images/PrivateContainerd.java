package io.criresmgr.images;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A containerd of the image tests' own: root, state and socket in a new directory under /tmp, no
 * CRI plugin, images and containers in namespace {@value #NAMESPACE}. The machine's containerd and
 * the e2e bed's are never touched; {@link #stop()} leaves nothing behind.
 */
final class PrivateContainerd {
  static final String NAMESPACE = "cri-resmgr-images";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration CTR_TIMEOUT = Duration.ofMinutes(2);

  private final Path dir;
  private final Process process;
  private final AtomicInteger commands = new AtomicInteger();
  private String snapshotter = "overlayfs";

  private PrivateContainerd(Path dir, Process process) {
    this.dir = dir;
    this.process = process;
  }

  /** Starts containerd and waits until it answers; closes it again if it does not. */
  static PrivateContainerd start() throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "crm-images-");
    Path config = Files.writeString(dir.resolve("config.toml"), config(dir));
    Process process =
        new ProcessBuilder("containerd", "--config", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("containerd.log").toFile())
            .start();
    PrivateContainerd containerd = new PrivateContainerd(dir, process);
    try {
      containerd.awaitServing();
    } catch (IOException | RuntimeException e) {
      containerd.stop();
      throw e;
    }
    return containerd;
  }

  /** Imports an image tarball (OCI layout or docker-save format). */
  void importImage(Path tarball) throws IOException, InterruptedException {
    ctr(CTR_TIMEOUT, "images", "import", "--snapshotter", snapshotter, tarball.toString())
        .orThrow();
  }

  /**
   * Runs a container of {@code image} to its end, read-only as the manifests run it ({@code ctr run
   * --rm --read-only}). {@code args} replace the image's entrypoint when not empty.
   */
  CommandResult run(String image, List<String> options, List<String> args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("run", "--rm", "--read-only"));
    command.addAll(List.of("--snapshotter", snapshotter));
    command.addAll(options);
    command.add(image);
    command.add("crm-" + ProcessHandle.current().pid() + "-" + commands.incrementAndGet());
    command.addAll(args);
    return ctr(CTR_TIMEOUT, command.toArray(String[]::new));
  }

  /** Runs {@code ctr} against this containerd, in {@value #NAMESPACE}. */
  CommandResult ctr(Duration timeout, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("ctr", "-a", socket(), "-n", NAMESPACE));
    command.addAll(List.of(args));
    Path log = dir.resolve("ctr-" + commands.incrementAndGet() + ".log");
    return CommandResult.run(timeout, log, command);
  }

  /** Removes containers and images, stops containerd, deletes its directory. */
  void stop() throws IOException, InterruptedException {
    if (process.isAlive()) {
      removeAll("tasks", "kill", "-s", "SIGKILL");
      removeAll("tasks", "rm", "-f");
      removeAll("containers", "rm");
      removeAll("images", "rm");
    }
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    HostCleanup.unmountUnder(dir);
    HostCleanup.deleteTree(dir);
    HostCleanup.removeCgroupParents(NAMESPACE);
  }

  private void awaitServing() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (ctr(Duration.ofSeconds(5), "version").exitCode() != 0) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IOException(
            "containerd did not serve "
                + socket()
                + " within "
                + START_TIMEOUT
                + ": "
                + Files.readString(dir.resolve("containerd.log")));
      }
      Thread.sleep(100);
    }
    String plugins = ctr(CTR_TIMEOUT, "plugins", "ls").orThrow().output();
    if (!plugins
        .lines()
        .anyMatch(l -> l.matches(".*snapshotter\\.v1\\s+overlayfs\\s+\\S+\\s+ok.*"))) {
      snapshotter = "native";
    }
  }

  /** Runs {@code ctr KIND ACTION... ID} for each ID of {@code ctr KIND ls -q}. */
  private void removeAll(String kind, String... action) throws IOException, InterruptedException {
    for (String id : ctr(CTR_TIMEOUT, kind, "ls", "-q").output().lines().toList()) {
      List<String> args = new ArrayList<>(List.of(kind));
      args.addAll(List.of(action));
      args.add(id);
      ctr(CTR_TIMEOUT, args.toArray(String[]::new));
    }
  }

  private String socket() {
    return dir.resolve("containerd.sock").toString();
  }

  private static String config(Path dir) {
    return """
        version = 2
        root = "%1$s/root"
        state = "%1$s/state"
        disabled_plugins = ["io.containerd.grpc.v1.cri", "io.containerd.snapshotter.v1.aufs",
          "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs",
          "io.containerd.snapshotter.v1.devmapper"]
        [grpc]
          address = "%1$s/containerd.sock"
        [ttrpc]
          address = "%1$s/containerd.sock.ttrpc"
        [debug]
          address = ""
        [metrics]
          address = ""
        [plugins."io.containerd.internal.v1.opt"]
          path = "%1$s/opt"
        """
        .formatted(dir);
  }

  /** Leftovers on the host: mounts, files, cgroups. */
  static final class HostCleanup {
    private HostCleanup() {}

    /** Unmounts (lazily) whatever is still mounted below {@code dir}, deepest first. */
    static void unmountUnder(Path dir) throws IOException, InterruptedException {
      List<String> mounts =
          Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
              .map(line -> line.split(" ", -1)[4])
              .filter(point -> point.startsWith(dir + "/"))
              .sorted(Comparator.reverseOrder())
              .toList();
      for (String point : mounts) {
        CommandResult.run(
            Duration.ofSeconds(10), dir.resolve("umount.log"), List.of("umount", "-l", point));
      }
    }

    static void deleteTree(Path dir) throws IOException {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      }
    }

    /** Removes the empty cgroups ctr made for the namespace (v1 hierarchies and v2). */
    static void removeCgroupParents(String namespace) throws IOException {
      try (Stream<Path> hierarchies = Files.list(Path.of("/sys/fs/cgroup"))) {
        for (Path parent :
            Stream.concat(Stream.of(Path.of("/sys/fs/cgroup")), hierarchies).toList()) {
          try {
            Files.deleteIfExists(parent.resolve(namespace));
          } catch (FileSystemException busy) {
            // another run of these tests still has a container there
          }
        }
      }
    }
  }
}
