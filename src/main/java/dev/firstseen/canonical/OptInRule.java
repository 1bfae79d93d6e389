package dev.firstseen.canonical;

import java.util.Locale;

/**
 * Canonicalization rules that go beyond what RFC 3986 guarantees. Each merges URLs that are the
 * same page on most sites and different pages on some; enable one only if fetching such a page
 * twice costs more than missing one. The names are the values of {@code canonical.rules}.
 */
public enum OptInRule {
    /**
     * Sorts query parameters by name, keeping the order of equal names. May wrongly merge: pages of
     * applications that read parameters in order (some search and API endpoints).
     */
    SORT_QUERY("sort-query"),
    /**
     * Removes empty parameters and parameters with an empty name ({@code ?&a=1&&b=2&} to {@code
     * ?a=1&b=2}, {@code ?=1&a=1} to {@code ?a=1}), as Heritrix's FixupQueryString does. May wrongly
     * merge: an application that reads the raw query string.
     */
    STRIP_EMPTY_PARAMS("strip-empty-params"),
    /**
     * Removes tracking parameters ({@code canonical.tracking-parameters}: utm_*, gclid, fbclid,
     * ...). May wrongly merge: a site that uses one of these names for content.
     */
    STRIP_TRACKING("strip-tracking"),
    /**
     * Removes session ids: {@code ;jsessionid=} path parameters and the query parameters
     * jsessionid, phpsessid, aspsessionid*, cfid, cftoken, and sid when its value is 32 letters or
     * digits. May wrongly merge: pages whose content depends on the session (carts, logged-in
     * views), or a site whose "sid" is a content id of that shape.
     */
    STRIP_SESSION_IDS("strip-session-ids"),
    /**
     * Removes a leading {@code www.} or {@code www2.} label when what remains is still a
     * registrable domain. May wrongly merge: sites that serve different content on the two hosts;
     * with {@code keying.mode: HOST} it also changes the key.
     */
    STRIP_WWW("strip-www"),
    /**
     * Collapses runs of slashes in the path ({@code /a//b} to {@code /a/b}). May wrongly merge:
     * servers that map empty segments to different resources (rare, some object stores).
     */
    COLLAPSE_SLASHES("collapse-slashes"),
    /**
     * Removes a trailing slash from a non-root path ({@code /a/} to {@code /a}). May wrongly merge:
     * a directory and a file of the same name.
     */
    STRIP_TRAILING_SLASH("strip-trailing-slash");

    private final String ruleName;

    OptInRule(String ruleName) {
        this.ruleName = ruleName;
    }

    public String ruleName() {
        return ruleName;
    }

    /** The rule with this name (case-insensitive), or null. */
    public static OptInRule byName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (OptInRule r : values()) {
            if (r.ruleName.equals(n)) {
                return r;
            }
        }
        return null;
    }
}
