package io.criresmgr.webhook.admission;

/** The request body is not an {@code admission.k8s.io/v1} AdmissionReview request. */
public final class NotAnAdmissionReviewException extends Exception {
  private static final long serialVersionUID = 1L;

  /** {@code message} says what is wrong with the body. */
  public NotAnAdmissionReviewException(String message) {
    super(message);
  }
}
