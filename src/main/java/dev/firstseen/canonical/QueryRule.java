package dev.firstseen.canonical;

/**
 * Rule "query": percent-encoding normalized by {@link PercentEncoding} with the WHATWG
 * special-query encode set, and an empty query ({@code http://a/?}) dropped — no server can tell it
 * from no query (RFC 3986 section 6.2.3). Parameter names, values, order, {@code +} and {@code %2B}
 * are never changed.
 */
final class QueryRule {
    private QueryRule() {}

    /** Appends {@code ?query} for {@code s[from, to)} (the text after '?'), unless it is empty. */
    static void apply(String s, int from, int to, StringBuilder out) {
        if (from >= to) {
            return;
        }
        out.append('?');
        PercentEncoding.normalize(s, from, to, PercentEncoding.QUERY_SET, out);
    }
}
