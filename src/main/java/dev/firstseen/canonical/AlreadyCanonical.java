package dev.firstseen.canonical;

import dev.firstseen.canonical.Canonicalization.HostType;

/**
 * Recognizes, in one pass over the input, a URL that every safe rule would leave exactly as it is,
 * so that the most common input — a link the extractor already resolved to an absolute, lower-case
 * URL — is not taken apart and written again. It is not a rule: it changes nothing, it only answers
 * early.
 *
 * <p>Its contract: when it answers, the answer equals the full rules' answer for the same input
 * (canonical URL, host, host type and fetchable URL); when in any doubt it answers null and the
 * full rules run. It answers only for {@code http} and {@code https} written in lower case, a host
 * of lower-case letters, digits, '-' and '.' (no port, userinfo, trailing dot or final numeric
 * label), a non-empty path, and a path and query of ASCII characters outside their encode sets with
 * escapes the rules keep (upper-case hex, not an unreserved character). No white space, no
 * fragment, no dot segment, no backslash, no empty query. {@code AlreadyCanonicalTest} holds it to
 * the full rules over the conformance corpora, the crawl stream, random input and edits of
 * canonical forms. The opt-in rules are not covered: a canonicalizer with any of them does not use
 * this.
 */
final class AlreadyCanonical {
    private AlreadyCanonical() {}

    /**
     * The canonicalization of {@code s} if {@code s} is already canonical and of the shape above,
     * else null.
     *
     * @param http whether the scheme http is accepted
     * @param https whether the scheme https is accepted
     * @param maxLength the longest canonical URL accepted
     */
    static Canonicalization check(String s, boolean http, boolean https, int maxLength) {
        int n = s.length();
        if (n > maxLength || n < 8 || !s.startsWith("http")) {
            return null;
        }
        int colon = 4;
        if (s.charAt(4) == 's') {
            if (!https) {
                return null;
            }
            colon = 5;
        } else if (!http) {
            return null;
        }
        if (n < colon + 4
                || s.charAt(colon) != ':'
                || s.charAt(colon + 1) != '/'
                || s.charAt(colon + 2) != '/') {
            return null;
        }
        int hostStart = colon + 3;
        int labelStart = hostStart;
        int i = hostStart;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c == '/') {
                break;
            }
            if (c == '.') {
                if (i - labelStart > HostRule.MAX_LABEL_LENGTH) {
                    return null;
                }
                labelStart = i + 1;
            } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                return null; // upper case, port, userinfo, escape, IPv6, query, fragment, ...
            }
        }
        if (i == hostStart
                || i == n // an empty path is written as "/"
                || i - hostStart > HostRule.MAX_HOST_LENGTH
                || i - labelStart > HostRule.MAX_LABEL_LENGTH
                || s.charAt(i - 1) == '.') {
            return null;
        }
        int hostEnd = i;
        int segmentStart = i + 1;
        for (i++; i < n; i++) {
            char c = s.charAt(i);
            if (c == '/' || c == '?') {
                if (PathRule.isDotSegment(s, segmentStart, i)) {
                    return null;
                }
                if (c == '?') {
                    break;
                }
                segmentStart = i + 1;
            } else if (c >= 128 || PercentEncoding.PATH_SET[c] || c == '\\') {
                return null;
            } else if (c == '%') {
                if (!keptEscape(s, i, n)) {
                    return null;
                }
                i += 2;
            }
        }
        if (i == n) {
            if (PathRule.isDotSegment(s, segmentStart, n)) {
                return null;
            }
        } else if (i == n - 1) {
            return null; // an empty query is dropped
        } else {
            for (i++; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 128 || PercentEncoding.QUERY_SET[c]) {
                    return null; // QUERY_SET holds '#', so a fragment ends up here too
                } else if (c == '%') {
                    if (!keptEscape(s, i, n)) {
                        return null;
                    }
                    i += 2;
                }
            }
        }
        String host = s.substring(hostStart, hostEnd);
        if (IpAddresses.endsInNumber(host)) {
            return null;
        }
        return Canonicalization.accepted(s, host, HostType.DOMAIN, s);
    }

    /**
     * True if the escape at {@code s[i]} is one {@link PercentEncoding} writes back as it is: two
     * upper-case hex digits that do not spell an unreserved character (those are decoded).
     */
    private static boolean keptEscape(String s, int i, int to) {
        if (i + 2 >= to) {
            return false;
        }
        char c1 = s.charAt(i + 1);
        char c2 = s.charAt(i + 2);
        // Lower-case hex digits sort after 'F'; the rules would write them in upper case.
        int hi = c1 <= 'F' ? PercentEncoding.hexValue(c1) : -1;
        int lo = c2 <= 'F' ? PercentEncoding.hexValue(c2) : -1;
        if (hi < 0 || lo < 0) {
            return false;
        }
        int v = hi << 4 | lo;
        return v >= 128 || !PercentEncoding.isUnreserved(v);
    }
}
