/**
 * Message dump (cri-resmgr's {@code dump} section): logs chosen CRI requests and replies by name or
 * in full, to the {@code message} logger and optionally to a file.
 *
 * <p>Rules are matched per short method name; decoding happens only for methods dumped in full, so
 * the relay pays nothing for methods that are off.
 */
@NullMarked
package io.criresmgr.proxy.dump;

import org.jspecify.annotations.NullMarked;
