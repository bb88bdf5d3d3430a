/** AdmissionReview handling: the pod resource annotation and the JSON patch that sets it. */
@NullMarked
package io.criresmgr.webhook.admission;

import org.jspecify.annotations.NullMarked;
