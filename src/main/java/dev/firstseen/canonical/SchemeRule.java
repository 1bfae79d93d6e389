package dev.firstseen.canonical;

import dev.firstseen.record.DeadLetterReason;
import java.util.Locale;
import java.util.Set;

/**
 * Rule "scheme": reads the scheme, lower-cases it (RFC 3986 section 6.2.2.1) and accepts only the
 * configured schemes. Everything the crawler cannot fetch (mailto:, javascript:, data:, ftp: by
 * default) is rejected here so it never takes a seat in the seen-set.
 */
final class SchemeRule {
    private SchemeRule() {}

    /** Returns the index of the ':' ending the scheme. */
    static int schemeEnd(String s) throws Rejected {
        if (s.isEmpty() || !isAlpha(s.charAt(0))) {
            throw new Rejected(DeadLetterReason.MISSING_SCHEME, "does not start with a scheme");
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ':') {
                return i;
            }
            if (!(isAlpha(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) {
                break;
            }
        }
        throw new Rejected(DeadLetterReason.MISSING_SCHEME, "no scheme before the first ':'");
    }

    static String scheme(String s, int end, Set<String> allowed) throws Rejected {
        String scheme = s.substring(0, end).toLowerCase(Locale.ROOT);
        if (!allowed.contains(scheme)) {
            throw new Rejected(
                    DeadLetterReason.UNSUPPORTED_SCHEME,
                    "scheme '" + abbreviate(scheme) + "' is not one of " + allowed);
        }
        return scheme;
    }

    /** Default port of a scheme with an authority, or -1. */
    static int defaultPort(String scheme) {
        switch (scheme) {
            case "http":
            case "ws":
                return 80;
            case "https":
            case "wss":
                return 443;
            case "ftp":
                return 21;
            default:
                return -1;
        }
    }

    private static boolean isAlpha(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}
