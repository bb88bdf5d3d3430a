package io.criresmgr.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The parts of an {@code admission.k8s.io/v1} AdmissionReview request the webhook looks at.
 *
 * @param uid the request's uid, copied into the response
 * @param resource the resource as {@code group/version/resource}, {@code /v1/pods} for core pods
 * @param subResource the subresource, empty for the object itself
 * @param operation {@code CREATE}, {@code UPDATE}, {@code DELETE} or {@code CONNECT}
 * @param object the object being admitted; null for DELETE
 * @param where namespace and name (or generate-name) of the object, for logs
 */
public record AdmissionRequest(
    String uid,
    String resource,
    String subResource,
    String operation,
    @Nullable JsonNode object,
    String where) {
  /** The API version of the reviews this webhook serves. */
  public static final String API_VERSION = "admission.k8s.io/v1";

  /** The kind of the review object. */
  public static final String KIND = "AdmissionReview";

  /** Checks that every text is present. */
  public AdmissionRequest {
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(subResource, "subResource");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(where, "where");
  }

  /** The request of {@code review}, an AdmissionReview as JSON. */
  static AdmissionRequest of(JsonNode review) throws NotAnAdmissionReviewException {
    if (!review.isObject()
        || !API_VERSION.equals(Fields.text(review, "apiVersion"))
        || !KIND.equals(Fields.text(review, "kind"))) {
      throw new NotAnAdmissionReviewException(
          "expected a JSON object with apiVersion " + API_VERSION + " and kind " + KIND);
    }
    JsonNode request = review.get("request");
    if (request == null || !request.isObject()) {
      throw new NotAnAdmissionReviewException("the AdmissionReview has no request object");
    }
    String uid = Fields.text(request, "uid");
    if (uid.isEmpty()) {
      throw new NotAnAdmissionReviewException("the AdmissionReview request has no uid");
    }
    JsonNode gvr = request.path("resource");
    String resource =
        Fields.text(gvr, "group")
            + "/"
            + Fields.text(gvr, "version")
            + "/"
            + Fields.text(gvr, "resource");
    JsonNode object = request.get("object");
    return new AdmissionRequest(
        uid,
        resource,
        Fields.text(request, "subResource"),
        Fields.text(request, "operation"),
        Fields.isAbsent(object) ? null : object,
        where(request, object));
  }

  /** True for a CREATE or UPDATE of a core/v1 pod itself (not one of its subresources). */
  public boolean isPodWrite() {
    return resource.equals("/v1/pods")
        && subResource.isEmpty()
        && (operation.equals("CREATE") || operation.equals("UPDATE"))
        && object != null;
  }

  private static String where(JsonNode request, @Nullable JsonNode object) {
    String name = Fields.text(request, "name");
    if (name.isEmpty() && object != null) {
      name = Fields.text(object.path("metadata"), "generateName") + "*";
    }
    return Fields.text(request, "namespace") + "/" + name;
  }
}
