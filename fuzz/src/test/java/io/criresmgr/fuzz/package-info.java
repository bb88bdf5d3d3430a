/**
 * Jazzer fuzz targets for the parsers of outside input: configuration files, annotations, the cache
 * file, AdmissionReview bodies and CRI requests (docs/fuzzing.md). Targets that need
 * package-private parsers live in the parser's package.
 */
@NullMarked
package io.criresmgr.fuzz;

import org.jspecify.annotations.NullMarked;
