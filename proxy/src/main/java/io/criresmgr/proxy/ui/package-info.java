/**
 * The live view of the node at {@code /ui} (docs/ui.md): a page, its script and style served from
 * the jar, and {@code /ui/node.json}, one JSON model of the node (topology, policy CPU sets, pods
 * and containers) with a version the page polls at {@code /ui/version}.
 *
 * <pre>
 *  pipeline step ──► NodeSnapshot (pods, containers, policy view, version; immutable values)
 *                         │  off the pipeline thread, only when the version moved
 *                         ▼
 *  SystemTopology ──► NodeModel.json ──► /ui/node.json ◄── view.js (polls /ui/version each second)
 * </pre>
 */
@NullMarked
package io.criresmgr.proxy.ui;

import org.jspecify.annotations.NullMarked;
