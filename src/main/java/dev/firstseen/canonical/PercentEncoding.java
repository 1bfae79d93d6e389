package dev.firstseen.canonical;

/**
 * Percent-encoding normalization shared by the path and query rules (RFC 3986 sections 2.1, 2.3,
 * 2.4 and 6.2.2.2; WHATWG percent-encode sets).
 *
 * <ul>
 *   <li>an escape of an unreserved character ({@code ALPHA DIGIT - . _ ~}) is decoded, unless the
 *       decoded hex digit would spell a new escape with a lone '%' before it ({@code %%36%31}
 *       stays, it does not become {@code %61});
 *   <li>every other escape keeps its meaning and gets upper-case hex digits: {@code %2f} becomes
 *       {@code %2F}, and {@code %25}, {@code %26}, {@code %3B}, {@code %23} stay escaped;
 *   <li>characters the component's encode set names, and every non-ASCII character, are written as
 *       percent-encoded UTF-8; a lone surrogate becomes U+FFFD, as a browser would send it;
 *   <li>a '%' not followed by two hex digits is left alone: escaping it would merge {@code a%zz}
 *       with {@code a%25zz}, which a server may well tell apart.
 * </ul>
 */
final class PercentEncoding {
    private PercentEncoding() {}

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** Characters 0x00-0x7F that RFC 3986 calls unreserved. */
    private static final boolean[] UNRESERVED = new boolean[128];

    /** WHATWG path percent-encode set (C0 controls, space, " # < > ? ` { } and DEL). */
    static final boolean[] PATH_SET = new boolean[128];

    /** WHATWG special-query percent-encode set (C0 controls, space, " # < > ' and DEL). */
    static final boolean[] QUERY_SET = new boolean[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            UNRESERVED[c] = true;
            UNRESERVED[c - 'a' + 'A'] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            UNRESERVED[c] = true;
        }
        UNRESERVED['-'] = true;
        UNRESERVED['.'] = true;
        UNRESERVED['_'] = true;
        UNRESERVED['~'] = true;
        for (int c = 0; c <= 0x20; c++) {
            PATH_SET[c] = true;
            QUERY_SET[c] = true;
        }
        PATH_SET[0x7F] = true;
        QUERY_SET[0x7F] = true;
        for (char c : "\"#<>?`{}".toCharArray()) {
            PATH_SET[c] = true;
        }
        for (char c : "\"#<>'".toCharArray()) {
            QUERY_SET[c] = true;
        }
    }

    /** Appends the normalized form of {@code s[from, to)} to {@code out}. */
    static void normalize(String s, int from, int to, boolean[] encodeSet, StringBuilder out) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%') {
                int hi = i + 2 < to ? hexValue(s.charAt(i + 1)) : -1;
                int lo = hi >= 0 ? hexValue(s.charAt(i + 2)) : -1;
                if (lo < 0) {
                    out.append('%');
                    continue;
                }
                int v = (hi << 4) | lo;
                if (v < 128 && UNRESERVED[v] && !wouldFormEscape(out, (char) v)) {
                    out.append((char) v);
                } else {
                    appendEscape(out, v);
                }
                i += 2;
            } else if (c < 128) {
                if (encodeSet[c]) {
                    appendEscape(out, c);
                } else {
                    out.append(c);
                }
            } else {
                i = appendUtf8(s, i, to, out);
            }
        }
    }

    /**
     * True if appending the hex digit {@code c} after a lone '%' (or a lone '%' and one hex digit)
     * already in {@code out} would spell a new escape: "%%36%31" must not become "%61", which the
     * next pass would read as "a". Such an escape stays escaped, so canon(canon(u)) = canon(u).
     */
    private static boolean wouldFormEscape(StringBuilder out, char c) {
        if (hexValue(c) < 0) {
            return false;
        }
        int n = out.length();
        return (n >= 1 && out.charAt(n - 1) == '%')
                || (n >= 2 && out.charAt(n - 2) == '%' && hexValue(out.charAt(n - 1)) >= 0);
    }

    /** True if {@code v} (below 128) is an unreserved character, which an escape never keeps. */
    static boolean isUnreserved(int v) {
        return UNRESERVED[v];
    }

    static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }

    static void appendEscape(StringBuilder out, int b) {
        out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
    }

    /**
     * Writes the code point at {@code s[i]} as escaped UTF-8; returns the index of its last char.
     */
    private static int appendUtf8(String s, int i, int to, StringBuilder out) {
        char c = s.charAt(i);
        int cp = c;
        int last = i;
        if (Character.isHighSurrogate(c)
                && i + 1 < to
                && Character.isLowSurrogate(s.charAt(i + 1))) {
            cp = Character.toCodePoint(c, s.charAt(i + 1));
            last = i + 1;
        } else if (Character.isSurrogate(c)) {
            cp = 0xFFFD;
        }
        if (cp < 0x800) {
            appendEscape(out, 0xC0 | (cp >> 6));
            appendEscape(out, 0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            appendEscape(out, 0xE0 | (cp >> 12));
            appendEscape(out, 0x80 | ((cp >> 6) & 0x3F));
            appendEscape(out, 0x80 | (cp & 0x3F));
        } else {
            appendEscape(out, 0xF0 | (cp >> 18));
            appendEscape(out, 0x80 | ((cp >> 12) & 0x3F));
            appendEscape(out, 0x80 | ((cp >> 6) & 0x3F));
            appendEscape(out, 0x80 | (cp & 0x3F));
        }
        return last;
    }
}
