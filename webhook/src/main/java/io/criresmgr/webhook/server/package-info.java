/** The HTTPS server: routes, content checks and status codes around the admission reviewer. */
@NullMarked
package io.criresmgr.webhook.server;

import org.jspecify.annotations.NullMarked;
