package dev.firstseen.canonical;

/**
 * Rule "path": an empty path becomes {@code /} (RFC 3986 section 6.2.3), a backslash counts as a
 * slash (WHATWG, special schemes), dot segments are removed (RFC 3986 section 5.2.4) including
 * their escaped spellings {@code %2e} (WHATWG single- and double-dot segments), and each segment's
 * percent-encoding is normalized by {@link PercentEncoding}.
 *
 * <p>Never changed: letter case, empty segments ({@code a//b}), a trailing slash, and escaped
 * reserved characters such as {@code %2F} — each may name a different resource on some server.
 */
final class PathRule {
    private PathRule() {}

    /** Appends the canonical path of {@code s[from, to)} (which starts after the authority). */
    static void apply(String s, int from, int to, StringBuilder out) {
        int pathStart = out.length();
        // Walk segments; each segment is the text after a separator ('/' or '\').
        int i = from;
        if (i < to && isSeparator(s.charAt(i))) {
            i++;
        }
        while (true) {
            int end = i;
            while (end < to && !isSeparator(s.charAt(end))) {
                end++;
            }
            boolean last = end >= to;
            if (isDoubleDot(s, i, end)) {
                popSegment(out, pathStart);
                if (last) {
                    out.append('/');
                }
            } else if (isSingleDot(s, i, end)) {
                if (last) {
                    out.append('/');
                }
            } else {
                out.append('/');
                PercentEncoding.normalize(s, i, end, PercentEncoding.PATH_SET, out);
            }
            if (last) {
                break;
            }
            i = end + 1;
        }
        if (out.length() == pathStart) {
            out.append('/');
        }
    }

    /** Removes the last "/segment" written since {@code pathStart}, if any. */
    private static void popSegment(StringBuilder out, int pathStart) {
        int len = out.length();
        if (len == pathStart) {
            return;
        }
        int slash = len - 1;
        while (slash > pathStart && out.charAt(slash) != '/') {
            slash--;
        }
        out.setLength(slash);
    }

    static boolean isSeparator(char c) {
        return c == '/' || c == '\\';
    }

    /** True if {@code s[from, to)} is a dot segment, plain or escaped: one this rule removes. */
    static boolean isDotSegment(String s, int from, int to) {
        return isSingleDot(s, from, to) || isDoubleDot(s, from, to);
    }

    private static boolean isSingleDot(String s, int from, int to) {
        int n = to - from;
        return (n == 1 && s.charAt(from) == '.') || (n == 3 && isEscapedDot(s, from));
    }

    private static boolean isDoubleDot(String s, int from, int to) {
        switch (to - from) {
            case 2:
                return s.charAt(from) == '.' && s.charAt(from + 1) == '.';
            case 4:
                return (s.charAt(from) == '.' && isEscapedDot(s, from + 1))
                        || (isEscapedDot(s, from) && s.charAt(from + 3) == '.');
            case 6:
                return isEscapedDot(s, from) && isEscapedDot(s, from + 3);
            default:
                return false;
        }
    }

    private static boolean isEscapedDot(String s, int at) {
        return s.charAt(at) == '%'
                && s.charAt(at + 1) == '2'
                && (s.charAt(at + 2) == 'e' || s.charAt(at + 2) == 'E');
    }
}
