package io.criresmgr.e2e;

import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Records each CRI call of a workflow with its outcome ({@code "RunPodSandbox OK"}). */
final class CallLog {
  private final List<String> entries = new ArrayList<>();

  /** Makes the call, records its status code, and returns its answer or rethrows its error. */
  <T> T call(String method, Supplier<T> rpc) {
    try {
      T answer = rpc.get();
      entries.add(method + " OK");
      return answer;
    } catch (StatusRuntimeException e) {
      entries.add(method + " " + e.getStatus().getCode());
      throw e;
    }
  }

  /** The calls so far, in order. */
  List<String> entries() {
    return List.copyOf(entries);
  }
}
