package io.criresmgr.policy.cpuallocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * cri-resmgr's {@code TestAllocatorHelper} ({@code pkg/cpuallocator/cpuallocator_test.go}): its
 * 80-CPU two-socket system with faked priorities, high = five cores of package 0, normal = package
 * 1, low = the rest of package 0.
 */
class AllocatorHelperTest {
  static final Map<CpuPriority, CpuSet> FAKED =
      Map.of(
          CpuPriority.HIGH, CpuSet.parse("2,5,8,15,17,42,45,48,55,57"),
          CpuPriority.NORMAL, CpuSet.parse("20-39,60-79"),
          CpuPriority.LOW,
              CpuSet.parse("0,1,3,4,6,7,9-14,16,18,19,40,41,43,44,46,47,49-54,56,58,59"));

  private final CpuAllocator allocator = new CpuAllocator(GridTopology.server80().build(), FAKED);

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      value = {
        "request all available CPUs; 2,3,10-14,20; NORMAL; 8; 2-3,10-14,20",
        // No idle core in 'from' (siblings 42, 43, 50-65 are missing): the high-priority threads
        // 2, 15 and 17 of package 0 come first, then the lowest id of the same package.
        "prefer high priority cpus; 2,3,10-25; HIGH; 4; 2-3,15,17",
      })
  void picksAsTheReference(
      String description, String from, CpuPriority prefer, int count, String expected) {
    assertEquals(CpuSet.parse(expected), allocator.allocate(CpuSet.parse(from), count, prefer));
  }

  @ParameterizedTest
  @CsvSource({"NORMAL", "HIGH", "LOW", "NONE"})
  void tooFewAvailableCpusIsAnError(CpuPriority prefer) {
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> allocator.allocate(CpuSet.parse("2,3,10-14,20"), 9, prefer));
    assertEquals("cannot allocate 9 CPUs: only 8 available in 2-3,10-14,20", e.getMessage());
  }
}
