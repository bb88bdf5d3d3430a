package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.cli.RequestConverter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The log context of an intercepted call (docs/configuration.md, "Logging"): the CRI method, and
 * the pod and container its request names, as the request names them. Runtime ids are shortened to
 * their first {@value #ID_CHARS} characters, as crictl shows them.
 */
final class RequestLog {
  /** MDC key of the method. */
  static final String METHOD = RequestConverter.METHOD;

  /** MDC key of the pod: namespace/name, or the sandbox id. */
  static final String POD = RequestConverter.POD;

  /** MDC key of the container: its name at CreateContainer, its id afterwards. */
  static final String CONTAINER = RequestConverter.CONTAINER;

  /** How much of a runtime id a log line shows. */
  static final int ID_CHARS = 12;

  private RequestLog() {}

  /** The log context of {@code request}, a request of the CRI method {@code method}. */
  static Map<String, String> of(String method, Object request) {
    Map<String, String> log = new LinkedHashMap<>();
    log.put(METHOD, method);
    if (request instanceof RunPodSandboxRequest r) {
      PodSandboxMetadata m = r.getConfig().getMetadata();
      put(
          log,
          POD,
          m.getNamespace().isEmpty() ? m.getName() : m.getNamespace() + "/" + m.getName());
    } else if (request instanceof StopPodSandboxRequest r) {
      put(log, POD, shortId(r.getPodSandboxId()));
    } else if (request instanceof RemovePodSandboxRequest r) {
      put(log, POD, shortId(r.getPodSandboxId()));
    } else if (request instanceof CreateContainerRequest r) {
      put(log, POD, shortId(r.getPodSandboxId()));
      put(log, CONTAINER, r.getConfig().getMetadata().getName());
    } else if (request instanceof StartContainerRequest r) {
      put(log, CONTAINER, shortId(r.getContainerId()));
    } else if (request instanceof StopContainerRequest r) {
      put(log, CONTAINER, shortId(r.getContainerId()));
    } else if (request instanceof RemoveContainerRequest r) {
      put(log, CONTAINER, shortId(r.getContainerId()));
    } else if (request instanceof UpdateContainerResourcesRequest r) {
      put(log, CONTAINER, shortId(r.getContainerId()));
    }
    return log;
  }

  /** The first {@value #ID_CHARS} characters of {@code id}. */
  static String shortId(String id) {
    return id.length() <= ID_CHARS ? id : id.substring(0, ID_CHARS);
  }

  private static void put(Map<String, String> log, String key, String value) {
    if (!value.isEmpty() && !value.equals("/")) {
      log.put(key, value);
    }
  }
}
