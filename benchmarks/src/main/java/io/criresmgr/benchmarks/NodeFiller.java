package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import java.util.Objects;

/**
 * Fills a node through the CRI, as kubelet would: pods of two containers each, created and started,
 * the exclusive ones first (so that no shared container needs an update while filling).
 */
final class NodeFiller {
  /** The pod of the measured container. */
  static final String CANDIDATE_POD = "candidate";

  /** The measured container's name. */
  static final String CANDIDATE = "measured";

  private final RuntimeServiceBlockingStub stub;

  NodeFiller(RuntimeServiceBlockingStub stub) {
    this.stub = Objects.requireNonNull(stub, "stub");
  }

  /** Runs {@code total} containers, the first {@code exclusive} of them on one whole CPU each. */
  void fill(int total, int exclusive) {
    String podId = "";
    PodSandboxConfig pod = PodSandboxConfig.getDefaultInstance();
    for (int i = 0; i < total; i++) {
      if (i % 2 == 0) {
        pod = CriRequests.podConfig("pod-" + i / 2);
        podId = stub.runPodSandbox(CriRequests.runPod("pod-" + i / 2)).getPodSandboxId();
      }
      var resources = i < exclusive ? CriRequests.wholeCpus(1) : CriRequests.shared();
      String name = "c" + i % 2;
      String id =
          stub.createContainer(CriRequests.createContainer(podId, pod, name, resources))
              .getContainerId();
      stub.startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
    }
  }

  /**
   * Runs the candidate pod and returns the CreateContainer request of the measured container, on
   * one whole CPU if {@code exclusive}, else shared.
   */
  static CreateContainerRequest candidate(RuntimeServiceBlockingStub stub, boolean exclusive) {
    PodSandboxConfig pod = CriRequests.podConfig(CANDIDATE_POD);
    String podId = stub.runPodSandbox(CriRequests.runPod(CANDIDATE_POD)).getPodSandboxId();
    var resources = exclusive ? CriRequests.wholeCpus(1) : CriRequests.shared();
    return CriRequests.createContainer(podId, pod, CANDIDATE, resources);
  }
}
