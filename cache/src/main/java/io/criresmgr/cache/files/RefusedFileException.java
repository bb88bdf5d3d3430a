package io.criresmgr.cache.files;

import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * A file that is not read because of what it is: not a regular file, too large, or a symbolic link
 * leading out of its directory. {@link #getReason()} is a phrase after the file name, such as "is a
 * FIFO (named pipe), not a regular file"; {@link #getMessage()} is {@code FILE: REASON}.
 */
public final class RefusedFileException extends FileSystemException {
  private static final long serialVersionUID = 1L;

  private final String why;

  /** {@code file} is refused because it {@code reason}. */
  public RefusedFileException(Path file, String reason) {
    super(file.toString(), null, reason);
    this.why = reason;
  }

  @Override
  public String getReason() {
    return why;
  }

  @Override
  public String getMessage() {
    return getFile() + ": " + getReason();
  }
}
