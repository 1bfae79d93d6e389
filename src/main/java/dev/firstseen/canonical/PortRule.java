package dev.firstseen.canonical;

import dev.firstseen.record.DeadLetterReason;

/**
 * Rule "port": an empty port and the scheme's default port are removed (RFC 3986 section 6.2.3);
 * leading zeros are dropped; anything but a number from 0 to 65535 is rejected.
 */
final class PortRule {
    private PortRule() {}

    /** Returns the port to keep, or -1 for none. */
    static int apply(String s, int from, int to, int defaultPort) throws Rejected {
        if (from >= to) {
            return -1;
        }
        int port = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new Rejected(
                        DeadLetterReason.BAD_PORT,
                        "port '"
                                + SchemeRule.abbreviate(s.substring(from, to))
                                + "' is not a number");
            }
            port = port * 10 + (c - '0');
            if (port > 65535) {
                throw new Rejected(DeadLetterReason.BAD_PORT, "port is larger than 65535");
            }
        }
        return port == defaultPort ? -1 : port;
    }
}
