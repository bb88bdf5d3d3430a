package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.CgroupDriver;
import io.criresmgr.api.runtime.v1.LinuxRuntimeConfiguration;
import io.criresmgr.api.runtime.v1.RuntimeCondition;
import io.criresmgr.api.runtime.v1.RuntimeConfigResponse;
import io.criresmgr.api.runtime.v1.RuntimeHandler;
import io.criresmgr.api.runtime.v1.RuntimeStatus;
import io.criresmgr.api.runtime.v1.StatusResponse;
import io.criresmgr.api.runtime.v1.VersionResponse;

/** The static answers of {@code Version}, {@code Status} and {@code RuntimeConfig}. */
final class RuntimeInfo {
  /** The kubelet runtime API version reported in {@code VersionResponse.version}. */
  static final String KUBELET_API_VERSION = "0.1.0";

  private RuntimeInfo() {}

  static VersionResponse version(SimOptions options) {
    return VersionResponse.newBuilder()
        .setVersion(KUBELET_API_VERSION)
        .setRuntimeName(options.runtimeName())
        .setRuntimeVersion(options.runtimeVersion())
        .setRuntimeApiVersion("v1")
        .build();
  }

  /** Runtime and network ready; the default handler and {@code runc}. */
  static StatusResponse status() {
    return StatusResponse.newBuilder()
        .setStatus(
            RuntimeStatus.newBuilder()
                .addConditions(ready("RuntimeReady"))
                .addConditions(ready("NetworkReady")))
        .addRuntimeHandlers(RuntimeHandler.newBuilder().setName(""))
        .addRuntimeHandlers(RuntimeHandler.newBuilder().setName("runc"))
        .build();
  }

  static RuntimeConfigResponse runtimeConfig() {
    return RuntimeConfigResponse.newBuilder()
        .setLinux(LinuxRuntimeConfiguration.newBuilder().setCgroupDriver(CgroupDriver.CGROUPFS))
        .build();
  }

  private static RuntimeCondition ready(String type) {
    return RuntimeCondition.newBuilder().setType(type).setStatus(true).build();
  }
}
