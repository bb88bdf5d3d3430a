/**
 * Container affinity and anti-affinity (docs/policy/topology-aware.md, "Affinity and
 * anti-affinity"): label expressions with Go-style globs, the two annotation syntaxes, and scoring
 * of a container against its peers. Everything here is an immutable value or a pure function, safe
 * to use from any thread; policies call it on the pipeline thread.
 */
@NullMarked
package io.criresmgr.cache.affinity;

import org.jspecify.annotations.NullMarked;
