package dev.firstseen.canonical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Table tests of the opt-in rules, one group per rule; each also shows what the safe profile keeps.
 */
class OptInRulesTest {

    private static Canonicalizer with(OptInRule... rules) {
        return new Canonicalizer(
                Set.of("http", "https"),
                8192,
                new CanonicalProfile(
                        rules.length == 0
                                ? EnumSet.noneOf(OptInRule.class)
                                : EnumSet.of(rules[0], rules),
                        CanonicalProfile.DEFAULT_TRACKING_PARAMETERS));
    }

    private static void same(Canonicalizer c, String in, String expected) {
        assertThat(c.canonicalize(in).url()).as(in).isEqualTo(expected);
        assertThat(c.canonicalize(expected).url()).as("idempotent " + expected).isEqualTo(expected);
    }

    private final Canonicalizer safe = with();

    @Test
    void sortQuery() {
        Canonicalizer c = with(OptInRule.SORT_QUERY);
        same(c, "http://a.com/?b=2&a=1", "http://a.com/?a=1&b=2");
        same(c, "http://a.com/?a=2&b=1&a=1", "http://a.com/?a=2&a=1&b=1"); // equal names keep order
        same(c, "http://a.com/?b&a=", "http://a.com/?a=&b"); // names without '='
        same(safe, "http://a.com/?b=2&a=1", "http://a.com/?b=2&a=1");
    }

    @Test
    void stripEmptyParams() {
        Canonicalizer c = with(OptInRule.STRIP_EMPTY_PARAMS);
        same(c, "http://a.com/?&a=1&&b=2&", "http://a.com/?a=1&b=2");
        same(c, "http://a.com/?=1&a=", "http://a.com/?a="); // empty name goes, empty value stays
        same(c, "http://a.com/p?&", "http://a.com/p");
        same(safe, "http://a.com/?&a=1&", "http://a.com/?&a=1&");
    }

    @Test
    void stripTracking() {
        Canonicalizer c = with(OptInRule.STRIP_TRACKING);
        same(c, "http://a.com/p?utm_source=x&id=3&utm_medium=y", "http://a.com/p?id=3");
        same(c, "http://a.com/p?gclid=1&fbclid=2&MSCLKID=3", "http://a.com/p"); // all gone, no '?'
        same(c, "http://a.com/p?_ga=1&q=utm_source", "http://a.com/p?q=utm_source"); // names only
        same(c, "http://a.com/p?utmost=1", "http://a.com/p?utmost=1"); // utm_* needs the '_'
        same(safe, "http://a.com/p?utm_source=x", "http://a.com/p?utm_source=x");
        Canonicalizer custom =
                new Canonicalizer(
                        Set.of("http"),
                        8192,
                        new CanonicalProfile(EnumSet.of(OptInRule.STRIP_TRACKING), List.of("ref")));
        same(custom, "http://a.com/?ref=tw&utm_source=x", "http://a.com/?utm_source=x");
    }

    @Test
    void stripSessionIds() {
        Canonicalizer c = with(OptInRule.STRIP_SESSION_IDS);
        same(c, "http://a.com/cart;jsessionid=A1B2C3?x=1", "http://a.com/cart?x=1");
        same(c, "http://a.com/a;JSESSIONID=1/b", "http://a.com/a/b");
        same(c, "http://a.com/p?PHPSESSID=abc&id=1", "http://a.com/p?id=1");
        same(c, "http://a.com/p?ASPSESSIONIDQQGGQGPD=x&id=1", "http://a.com/p?id=1");
        same(c, "http://a.com/p?CFID=1&CFTOKEN=2", "http://a.com/p");
        same(c, "http://a.com/p?sid=0123456789abcdef0123456789abcdef", "http://a.com/p");
        same(c, "http://a.com/p?sid=42", "http://a.com/p?sid=42"); // not session-shaped: kept
        same(safe, "http://a.com/a;jsessionid=1/b", "http://a.com/a;jsessionid=1/b");
    }

    @Test
    void stripWww() {
        Canonicalizer c = with(OptInRule.STRIP_WWW);
        same(c, "http://www.example.com/", "http://example.com/");
        same(c, "http://WWW2.example.co.uk/a", "http://example.co.uk/a");
        same(c, "http://www.www.example.com/", "http://example.com/");
        same(c, "http://www.co.uk/", "http://www.co.uk/"); // the rest is a public suffix
        same(c, "http://wwwx.example.com/", "http://wwwx.example.com/");
        same(c, "http://www.localhost/", "http://www.localhost/"); // no registrable domain left
        same(safe, "http://www.example.com/", "http://www.example.com/");
    }

    @Test
    void collapseSlashes() {
        Canonicalizer c = with(OptInRule.COLLAPSE_SLASHES);
        same(c, "http://a.com//a///b//", "http://a.com/a/b/");
        same(c, "http://a.com/a/..//b", "http://a.com/b");
        same(c, "http://a.com/a?x=//", "http://a.com/a?x=//"); // the query is not a path
        same(safe, "http://a.com//a", "http://a.com//a");
    }

    @Test
    void stripTrailingSlash() {
        Canonicalizer c = with(OptInRule.STRIP_TRAILING_SLASH);
        same(c, "http://a.com/a/", "http://a.com/a");
        same(c, "http://a.com/a/.", "http://a.com/a");
        same(c, "http://a.com/", "http://a.com/"); // the root keeps its slash
        same(c, "http://a.com/a//", "http://a.com/a");
        same(safe, "http://a.com/a/", "http://a.com/a/");
    }

    @Test
    void profileIdNamesRulesAndTrackingList() {
        assertThat(CanonicalProfile.safe().id()).isEqualTo("rfc3986-safe/1");
        CanonicalProfile p =
                CanonicalProfile.of(
                        List.of("strip-tracking", "SORT-QUERY"),
                        CanonicalProfile.DEFAULT_TRACKING_PARAMETERS);
        assertThat(p.id()).matches("rfc3986-safe/1\\+sort-query\\+strip-tracking\\[[0-9a-f]{8}]");
        CanonicalProfile other = CanonicalProfile.of(List.of("strip-tracking"), List.of("utm_*"));
        assertThat(other.id()).isNotEqualTo(p.id().replace("+sort-query", ""));
        assertThatThrownBy(() -> CanonicalProfile.of(List.of("lowercase-path"), List.of()))
                .hasMessageContaining("lowercase-path")
                .hasMessageContaining("known rules: sort-query");
    }
}
