package io.criresmgr.cache;

import static io.criresmgr.fuzz.Refusals.valueOrRefusal;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.criresmgr.cache.SnapshotJson.UnusableException;
import java.util.Optional;

/**
 * The cache file's decoder on any bytes: a snapshot, or the reason the file is unusable (which the
 * daemon logs when it moves the file aside). A snapshot it accepts is written back to the same
 * snapshot, so a restart never changes what was restored.
 */
class CacheFileFuzzTest {
  @FuzzTest(maxDuration = "20s")
  void snapshotIsRestoredOrRefusedAndRoundTrips(byte[] content) throws Exception {
    Optional<CacheSnapshot> snapshot =
        valueOrRefusal(UnusableException.class, () -> SnapshotJson.decode(content));
    if (snapshot.isPresent()) {
      byte[] written = SnapshotJson.encode(snapshot.get());
      assertEquals(snapshot.get(), SnapshotJson.decode(written), "after a save and a restore");
    }
  }
}
