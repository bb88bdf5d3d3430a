package io.criresmgr.agent.kube;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.Watch;

/** One kind of API object, seen as the API server serves it: a list, then a watch from there. */
public interface ListWatch<T> {
  /** The objects now, with the list's resource version. */
  Listing<T> list() throws ApiException;

  /** The changes after {@code resourceVersion}, as a stream the caller must close. */
  Watch<T> watch(String resourceVersion) throws ApiException;
}
