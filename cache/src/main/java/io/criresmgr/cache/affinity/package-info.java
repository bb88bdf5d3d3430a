/**
 * Container affinity and anti-affinity (reference §3.6): label expressions, the two annotation
 * syntaxes, and scoring of a container against its peers.
 */
@NullMarked
package io.criresmgr.cache.affinity;

import org.jspecify.annotations.NullMarked;
