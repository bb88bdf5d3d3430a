/**
 * Which ConfigMap configures this node: the node's own, its group's, or the default one, chosen
 * with cri-resmgr's precedence and handed on, rate-limited, only when the choice changes.
 */
@NullMarked
package io.criresmgr.agent.config;

import org.jspecify.annotations.NullMarked;
