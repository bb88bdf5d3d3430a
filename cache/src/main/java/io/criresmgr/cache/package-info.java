/**
 * The node cache: pods, containers, their resources and assignments. Single writer: the pipeline.
 */
@NullMarked
package io.criresmgr.cache;

import org.jspecify.annotations.NullMarked;
