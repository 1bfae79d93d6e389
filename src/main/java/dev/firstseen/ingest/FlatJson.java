package dev.firstseen.ingest;

/**
 * One pass over the JSON object most link extractors send: a flat object whose values are strings,
 * numbers, {@code true}, {@code false} or {@code null}, such as {@code
 * {"url":"https://example.com/a","found_on":"https://example.com/","depth":2}}. It fills {@link
 * JsonFields} exactly as {@link MessageDecoder}'s Jackson reader would, or returns false and leaves
 * the object to Jackson.
 *
 * <p>It answers only for what it can read completely. An escape in a field name, an invalid escape
 * or a control character in a string, a nested object or array, a duplicate or over-long field
 * name, an over-long number, a field {@code revisit_after}, a trailing comma, white space other
 * than JSON's four characters, or anything after the object, and it returns false. So every record
 * it rejects, and every error message, comes from Jackson. {@code FlatJsonTest} holds its answers
 * to Jackson's on the benchmark stream's values, hand-made cases and random edits of them.
 */
final class FlatJson {
    private FlatJson() {}

    /** Fields beyond this many go to Jackson, so the duplicate check stays a short scan. */
    static final int MAX_FIELDS = 16;

    /** Field names longer than this go to Jackson. */
    static final int MAX_NAME = 256;

    /**
     * Numbers longer than this go to Jackson, which refuses those over its own limit (1,000
     * digits).
     */
    static final int MAX_NUMBER = 64;

    /**
     * Reads {@code text} (a stripped value starting with '{') into {@code out}; false if the fast
     * path does not answer for it, and then {@code out} may hold part of the object.
     */
    static boolean read(String text, JsonFields out) {
        int n = text.length();
        int[] nameStarts = out.nameStarts;
        int fields = 0;
        int i = skipWhiteSpace(text, 1);
        if (i < n && text.charAt(i) == '}') {
            return skipWhiteSpace(text, i + 1) == n;
        }
        while (true) {
            if (i >= n || text.charAt(i) != '"') {
                return false;
            }
            int nameStart = i;
            int nameEnd = endOfString(text, i + 1);
            if (nameEnd < 0 || nameEnd - nameStart - 1 > MAX_NAME) {
                return false;
            }
            if (fields == MAX_FIELDS) {
                return false;
            }
            for (int f = 0; f < fields; f++) {
                if (sameName(text, nameStarts[f], nameStart, nameEnd)) {
                    return false;
                }
            }
            nameStarts[fields++] = nameStart;
            i = skipWhiteSpace(text, nameEnd + 1);
            if (i >= n || text.charAt(i) != ':') {
                return false;
            }
            i = skipWhiteSpace(text, i + 1);
            if (i >= n) {
                return false;
            }
            int valueStart = i;
            boolean string = text.charAt(i) == '"';
            int valueEnd = string ? endOfValueString(text, i + 1) + 1 : endOfScalar(text, i);
            if (valueEnd <= 0) {
                return false;
            }
            if (!field(text, nameStart, nameEnd, valueStart, valueEnd, string, out)) {
                return false;
            }
            i = skipWhiteSpace(text, valueEnd);
            if (i >= n) {
                return false;
            }
            char c = text.charAt(i);
            if (c == '}') {
                return skipWhiteSpace(text, i + 1) == n;
            }
            if (c != ',') {
                return false;
            }
            i = skipWhiteSpace(text, i + 1);
        }
    }

    /** Files one field as the Jackson reader does; false for a field left to Jackson. */
    private static boolean field(
            String text,
            int nameStart,
            int nameEnd,
            int valueStart,
            int valueEnd,
            boolean string,
            JsonFields out) {
        if (isName(text, nameStart, nameEnd, "url")) {
            out.url = string ? stringValue(text, valueStart + 1, valueEnd - 1) : null;
            out.urlNotText = !string;
            return true;
        }
        if (isName(text, nameStart, nameEnd, "revisit_after")) {
            return false;
        }
        if (isName(text, nameStart, nameEnd, "op")) {
            out.opText = string ? stringValue(text, valueStart + 1, valueEnd - 1) : null;
            out.opNotText = !string;
            return true;
        }
        if (isName(text, nameStart, nameEnd, "key")) {
            out.key = string ? stringValue(text, valueStart + 1, valueEnd - 1) : null;
        }
        out.appendMeta(text, nameStart, valueEnd);
        return true;
    }

    /**
     * Index of the closing quote of a string value whose contents start at {@code i}; -1 if there
     * is none, or a control character, or a backslash not followed by one of JSON's escapes (a
     * quote, a backslash, a slash, b, f, n, r, t, or u and four ASCII hexadecimal digits).
     */
    private static int endOfValueString(String text, int i) {
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '"') {
                return i;
            }
            if (c < 0x20) {
                return -1;
            }
            if (c != '\\') {
                i++;
            } else if (i + 1 < n && "\"\\/bfnrt".indexOf(text.charAt(i + 1)) >= 0) {
                i += 2;
            } else if (i + 5 < n && text.charAt(i + 1) == 'u' && isHex(text, i + 2, i + 6)) {
                i += 6;
            } else {
                return -1;
            }
        }
        return -1;
    }

    private static boolean isHex(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            // ASCII only, as JSON and Jackson: Character.digit would take other scripts' digits.
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                return false;
            }
        }
        return true;
    }

    /** The value of a string from {@code from} to its closing quote at {@code to}, unescaped. */
    private static String stringValue(String text, int from, int to) {
        int escape = text.indexOf('\\', from);
        if (escape < 0 || escape >= to) {
            return text.substring(from, to);
        }
        StringBuilder b = new StringBuilder(to - from).append(text, from, escape);
        for (int i = escape; i < to; ) {
            char c = text.charAt(i);
            if (c != '\\') {
                b.append(c);
                i++;
                continue;
            }
            char e = text.charAt(i + 1);
            switch (e) {
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> b.append((char) Integer.parseInt(text, i + 2, i + 6, 16));
                default -> b.append(e); // '"', '\\' or '/'
            }
            i += e == 'u' ? 6 : 2;
        }
        return b.toString();
    }

    /** Index of the closing quote of a name whose contents start at {@code i}; -1 if none. */
    private static int endOfString(String text, int i) {
        int n = text.length();
        for (; i < n; i++) {
            char c = text.charAt(i);
            if (c == '"') {
                return i;
            }
            if (c == '\\' || c < 0x20) {
                return -1;
            }
        }
        return -1;
    }

    /**
     * End of a number, {@code true}, {@code false} or {@code null} starting at {@code i}; -1 for
     * anything else. What follows it is checked by the caller, as after a string.
     */
    private static int endOfScalar(String text, int i) {
        int end;
        char c = text.charAt(i);
        if (c == 't') {
            end = text.startsWith("true", i) ? i + 4 : -1;
        } else if (c == 'f') {
            end = text.startsWith("false", i) ? i + 5 : -1;
        } else if (c == 'n') {
            end = text.startsWith("null", i) ? i + 4 : -1;
        } else {
            end = endOfNumber(text, i);
        }
        return end - i > MAX_NUMBER ? -1 : end;
    }

    /** End of {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?} at {@code i}; -1 if none. */
    private static int endOfNumber(String text, int i) {
        int n = text.length();
        if (i < n && text.charAt(i) == '-') {
            i++;
        }
        if (i >= n || !isDigit(text.charAt(i))) {
            return -1;
        }
        if (text.charAt(i) == '0') {
            i++;
        } else {
            i = digits(text, i);
        }
        if (i < n && text.charAt(i) == '.') {
            int from = i + 1;
            i = digits(text, from);
            if (i == from) {
                return -1;
            }
        }
        if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            i++;
            if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
                i++;
            }
            int from = i;
            i = digits(text, from);
            if (i == from) {
                return -1;
            }
        }
        return i;
    }

    private static int digits(String text, int i) {
        while (i < text.length() && isDigit(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isWhiteSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    private static int skipWhiteSpace(String text, int i) {
        while (i < text.length() && isWhiteSpace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    /**
     * True if the name quoted from {@code start} to {@code end} (the closing quote) is {@code s}.
     */
    private static boolean isName(String text, int start, int end, String s) {
        return end - start - 1 == s.length() && text.startsWith(s, start + 1);
    }

    /**
     * True if the name quoted at {@code other} equals the one from {@code start} to {@code end}.
     */
    private static boolean sameName(String text, int other, int start, int end) {
        int length = end - start;
        // other < start, so other + length < end: inside the text.
        return text.charAt(other + length) == '"' && text.regionMatches(other, text, start, length);
    }
}
