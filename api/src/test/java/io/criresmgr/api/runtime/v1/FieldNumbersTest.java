package io.criresmgr.api.runtime.v1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spot-checks wire-relevant facts of the CRI proto against upstream k8s.io/cri-api runtime.v1
 * (field numbers, types, labels, enum numbers, field options).
 */
class FieldNumbersTest {

  @ParameterizedTest(name = "{0}.{1} = {2}")
  @CsvSource({
    "ContainerConfig, linux, 15, MESSAGE, false",
    "ContainerConfig, windows, 16, MESSAGE, false",
    "ContainerConfig, CDI_devices, 17, MESSAGE, true",
    "ContainerConfig, stop_signal, 18, ENUM, false",
    "LinuxContainerResources, cpu_period, 1, INT64, false",
    "LinuxContainerResources, cpuset_cpus, 6, STRING, false",
    "LinuxContainerResources, cpuset_mems, 7, STRING, false",
    "LinuxContainerResources, hugepage_limits, 8, MESSAGE, true",
    "LinuxContainerResources, unified, 9, MESSAGE, true",
    "LinuxContainerResources, memory_swap_limit_in_bytes, 10, INT64, false",
    "ContainerStatus, resources, 16, MESSAGE, false",
    "ContainerStatus, image_id, 17, STRING, false",
    "ContainerStatus, stop_signal, 19, ENUM, false",
    "LinuxPodSandboxConfig, overhead, 4, MESSAGE, false",
    "LinuxPodSandboxConfig, resources, 5, MESSAGE, false",
    "LinuxSandboxSecurityContext, run_as_group, 8, MESSAGE, false",
    "LinuxContainerSecurityContext, supplemental_groups_policy, 17, ENUM, false",
    "ImageSpec, user_specified_image, 18, STRING, false",
    "ImageSpec, image_ref, 20, STRING, false",
    "Mount, uidMappings, 6, MESSAGE, true",
    "Mount, image_sub_path, 10, STRING, false",
    "PodSandboxStatusResponse, containers_statuses, 3, MESSAGE, true",
    "UpdateContainerResourcesRequest, annotations, 4, MESSAGE, true",
    "UpdatePodSandboxResourcesRequest, resources, 3, MESSAGE, false",
    "CreateContainerRequest, sandbox_config, 3, MESSAGE, false",
    "PsiData, Avg300, 4, DOUBLE, false",
    "Namespace, options, 2, MESSAGE, false",
  })
  void fieldMatchesUpstream(
      String message, String field, int number, FieldDescriptor.Type type, boolean repeated) {
    FieldDescriptor descriptor = field(message, field);
    assertEquals(number, descriptor.getNumber());
    assertEquals(type, descriptor.getType());
    assertEquals(repeated, descriptor.isRepeated());
  }

  @Test
  void mapsAreMapsOfStrings() {
    FieldDescriptor unified = field("LinuxContainerResources", "unified");
    assertTrue(unified.isMapField());
    Descriptor entry = unified.getMessageType();
    assertEquals(FieldDescriptor.Type.STRING, entry.findFieldByName("key").getType());
    assertEquals(FieldDescriptor.Type.STRING, entry.findFieldByName("value").getType());
  }

  @Test
  void enumNumbersMatchUpstream() {
    assertEquals(65, Signal.SIGRTMAX.getNumber());
    assertEquals(3, NamespaceMode.TARGET.getNumber());
    assertEquals(1, CgroupDriver.CGROUPFS.getNumber());
    assertEquals(3, ContainerEventType.CONTAINER_DELETED_EVENT.getNumber());
    EnumDescriptor signals = Signal.getDescriptor();
    assertEquals(66, signals.getValues().size());
  }

  @Test
  void secretsAreRedactedAndLegacyFieldsDeprecated() {
    for (String secret : new String[] {"password", "auth", "identity_token", "registry_token"}) {
      assertTrue(field("AuthConfig", secret).getOptions().getDebugRedact(), secret);
    }
    assertTrue(
        field("LinuxContainerSecurityContext", "apparmor_profile").getOptions().getDeprecated());
    assertTrue(
        field("LinuxSandboxSecurityContext", "seccomp_profile_path").getOptions().getDeprecated());
  }

  private static FieldDescriptor field(String message, String field) {
    Descriptor type = CriApi.getDescriptor().findMessageTypeByName(message);
    assertNotNull(type, message);
    FieldDescriptor descriptor = type.findFieldByName(field);
    assertNotNull(descriptor, message + "." + field);
    return descriptor;
  }
}
