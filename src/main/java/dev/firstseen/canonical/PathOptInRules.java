package dev.firstseen.canonical;

import java.util.Locale;

/**
 * The opt-in rules that rewrite the canonical path: strip-session-ids ({@code ;jsessionid=...} path
 * parameters), collapse-slashes and strip-trailing-slash. Input and output are canonical paths
 * (start with '/', ASCII).
 */
final class PathOptInRules {
    private PathOptInRules() {}

    static String apply(String path, CanonicalProfile p) {
        if (p.has(OptInRule.STRIP_SESSION_IDS)) {
            path = stripJsessionid(path);
        }
        if (p.has(OptInRule.COLLAPSE_SLASHES) && path.contains("//")) {
            StringBuilder sb = new StringBuilder(path.length());
            for (int i = 0; i < path.length(); i++) {
                char c = path.charAt(i);
                if (c != '/' || sb.length() == 0 || sb.charAt(sb.length() - 1) != '/') {
                    sb.append(c);
                }
            }
            path = sb.toString();
        }
        if (p.has(OptInRule.STRIP_TRAILING_SLASH)) {
            int end = path.length();
            while (end > 1 && path.charAt(end - 1) == '/') {
                end--;
            }
            path = path.substring(0, end);
        }
        return path;
    }

    /** Removes each ";jsessionid=..." up to the end of its segment. */
    private static String stripJsessionid(String path) {
        String lower = path.toLowerCase(Locale.ROOT);
        int at = lower.indexOf(";jsessionid=");
        if (at < 0) {
            return path;
        }
        StringBuilder sb = new StringBuilder(path.length());
        int from = 0;
        while (at >= 0) {
            sb.append(path, from, at);
            int end = path.indexOf('/', at);
            from = end < 0 ? path.length() : end;
            at = lower.indexOf(";jsessionid=", from);
        }
        sb.append(path, from, path.length());
        return sb.toString();
    }
}
