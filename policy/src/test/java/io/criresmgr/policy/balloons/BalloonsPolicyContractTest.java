package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyContractTest;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The contract on one package of two NUMA nodes with 4 CPUs each (8 CPUs), one CPU reserved by
 * quantity, and the contract's containers (namespace {@code default}) in a type of their own.
 */
class BalloonsPolicyContractTest extends PolicyContractTest {
  private static final SystemTopology TOPOLOGY =
      TopologySpec.parse("[{\"mem\": \"4G\", \"cores\": 2, \"nodes\": 2, \"packages\": 1}]")
          .topology();

  @Override
  protected PolicyProvider<?> provider() {
    return new BalloonsPolicyProvider(root -> TOPOLOGY);
  }

  @Override
  protected JsonNode options() {
    try {
      return new ObjectMapper()
          .readTree("{\"BalloonTypes\": [{\"Name\": \"work\", \"Namespaces\": [\"default\"]}]}");
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Containers of a balloon share all its CPUs by design; none holds CPUs on its own. */
  @Override
  protected boolean holdsExclusively(Container c) {
    return false;
  }

  @Override
  protected PolicyContext context() {
    return new PolicyContext(
        Path.of("/nonexistent-host-root"),
        CpuSet.range(0, 7),
        CpuSet.of(0, 1),
        Map.of(),
        Map.of("CPU", "750m"));
  }
}
