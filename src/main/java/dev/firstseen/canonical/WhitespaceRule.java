package dev.firstseen.canonical;

/**
 * Rule "whitespace": strips leading and trailing C0 controls and spaces, and removes every ASCII
 * tab, line feed and carriage return inside the URL (WHATWG URL Standard, basic URL parser, steps 1
 * and 3). Extractors often copy URLs out of markup with such characters in them; browsers ignore
 * them, so they never distinguish two pages.
 */
final class WhitespaceRule {
    private WhitespaceRule() {}

    static String apply(String in) {
        int start = 0;
        int end = in.length();
        while (start < end && in.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && in.charAt(end - 1) <= ' ') {
            end--;
        }
        boolean inner = false;
        for (int i = start; i < end; i++) {
            if (isTabOrNewline(in.charAt(i))) {
                inner = true;
                break;
            }
        }
        if (!inner) {
            return start == 0 && end == in.length() ? in : in.substring(start, end);
        }
        StringBuilder sb = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char c = in.charAt(i);
            if (!isTabOrNewline(c)) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean isTabOrNewline(char c) {
        return c == '\t' || c == '\n' || c == '\r';
    }
}
