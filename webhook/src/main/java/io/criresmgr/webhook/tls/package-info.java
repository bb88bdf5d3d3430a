/** The server's TLS credentials from PEM certificate and key files, with the JDK only. */
@NullMarked
package io.criresmgr.webhook.tls;

import org.jspecify.annotations.NullMarked;
