package io.criresmgr.proxy.core.cri;

import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.PodResourcesAnnotation;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.ResourceEstimator;
import java.util.Map;

/**
 * Whether the cache's annotation parser and resource estimator are implemented yet (they are
 * developed in parallel and throw {@link UnsupportedOperationException} until then); tests that
 * need them are skipped meanwhile and run automatically once they are.
 */
final class Parsers {
  private Parsers() {}

  static boolean annotationParserReady() {
    try {
      PodResourcesAnnotation.fromAnnotations(Map.of());
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }

  static boolean estimatorReady() {
    try {
      ResourceEstimator.estimate(LinuxResources.NONE, QosClass.BEST_EFFORT);
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }
}
