package io.criresmgr.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Test pods and AdmissionReview requests as JSON. */
public final class Pods {
  /** The mapper tests use to read and write JSON. */
  public static final JsonMapper JSON = new JsonMapper();

  /**
   * A pod with an init container {@code setup} and containers {@code app} (cpu, memory and an
   * extended resource) and {@code sidecar} (no resources), no annotations.
   */
  public static final String POD =
      """
      {"apiVersion":"v1","kind":"Pod",
       "metadata":{"generateName":"web-","namespace":"default","labels":{"app":"web"}},
       "spec":{
         "initContainers":[{"name":"setup","image":"busybox",
           "resources":{"requests":{"cpu":"100m","memory":"64Mi"},
                        "limits":{"cpu":"200m","memory":"128Mi"}}}],
         "containers":[
           {"name":"sidecar","image":"busybox"},
           {"name":"app","image":"nginx",
            "resources":{"requests":{"memory":"1Gi","cpu":"1500m","intel.com/gpu":"1"},
                         "limits":{"cpu":"2","memory":"2Gi","intel.com/gpu":"1",
                                   "hugepages-2Mi":"4Mi"}}}]}}
      """;

  /** The annotation {@link #POD} gets: sorted names, every resource, {@code {}} for none. */
  public static final String POD_ANNOTATION =
      "{\"initContainers\":{\"setup\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"},"
          + "\"limits\":{\"cpu\":\"200m\",\"memory\":\"128Mi\"}}},"
          + "\"containers\":{\"app\":{\"requests\":{\"cpu\":\"1500m\",\"intel.com/gpu\":\"1\","
          + "\"memory\":\"1Gi\"},\"limits\":{\"cpu\":\"2\",\"hugepages-2Mi\":\"4Mi\","
          + "\"intel.com/gpu\":\"1\",\"memory\":\"2Gi\"}},\"sidecar\":{}}}";

  private Pods() {}

  /** {@code json} parsed. */
  public static JsonNode json(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An AdmissionReview v1 request for a core/v1 pod. */
  public static String review(String uid, String operation, JsonNode pod) {
    ObjectNode review = JSON.createObjectNode();
    review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
    ObjectNode request = review.putObject("request").put("uid", uid);
    request.putObject("kind").put("group", "").put("version", "v1").put("kind", "Pod");
    request.putObject("resource").put("group", "").put("version", "v1").put("resource", "pods");
    request.put("namespace", "default").put("operation", operation);
    request.putObject("userInfo").put("username", "tester");
    request.set("object", pod);
    request.put("dryRun", false);
    return review.toString();
  }
}
