/**
 * The Kubernetes side of the agent (client-java): API clients, list-then-watch loops that reconnect
 * with backoff, and the watches of the Node and the ConfigMaps that feed the config choice.
 */
@NullMarked
package io.criresmgr.agent.kube;

import org.jspecify.annotations.NullMarked;
