package io.criresmgr.controllers.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Reads and writes sysfs attribute files; tests replace it to act like the kernel. */
interface SysfsIo {
  /** Plain file I/O; writes never create files (sysfs attributes exist or are not supported). */
  SysfsIo FILES =
      new SysfsIo() {
        @Override
        public String read(Path file) throws IOException {
          return Files.readString(file, StandardCharsets.US_ASCII);
        }

        @Override
        public void write(Path file, String value) throws IOException {
          Files.writeString(
              file,
              value,
              StandardCharsets.US_ASCII,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING);
        }
      };

  /** The content of {@code file}. */
  String read(Path file) throws IOException;

  /** Writes {@code value} to the existing {@code file}. */
  void write(Path file, String value) throws IOException;
}
