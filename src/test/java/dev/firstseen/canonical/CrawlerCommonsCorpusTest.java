package dev.firstseen.canonical;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * crawler-commons' normalizer corpus (vendored): {@code weirdToNormalizedUrls.csv} says which
 * spellings its BasicURLNormalizer treats as one URL. A pair passes when our safe profile gives
 * both the same canonical form. Pairs it does not merge on purpose are excluded with a tag: {@code
 * opt-in:<rule>} (and the test checks that the rule does merge them), {@code cc-divergence} (we
 * deliberately keep them apart), or {@code not-http}.
 */
class CrawlerCommonsCorpusTest {

    static final Map<String, String> EXCLUSIONS = new LinkedHashMap<>();

    static {
        // Empty path segments are kept by default: /a//b may be a different resource.
        for (String in :
                new String[] {
                    "http://foo.com//aa/bb/foo.html",
                    "http://foo.com/aa//bb/foo.html",
                    "http://foo.com/aa/bb//foo.html",
                    "http://foo.com//aa//bb//foo.html",
                    "http://foo.com////aa////bb//foo.html",
                    "http://foo.com////aa////bb////foo.html"
                }) {
            EXCLUSIONS.put(in, "opt-in:collapse-slashes");
        }
        // A lone '%' and the escaped '%25' may be told apart by a server.
        EXCLUSIONS.put(
                "https://www.last.fm/music/Prefuse+73/_/90%+of+My+Mind+Is+With+You",
                "cc-divergence");
        EXCLUSIONS.put("http://www.example.com/a/c/../b/search?q=foobar%", "cc-divergence");
        // WHATWG leaves ^ ` | and {} unescaped in queries (and ^ | in paths); browsers send them
        // raw, so the raw form is the one to keep.
        EXCLUSIONS.put("http://www.example.com/a/c/../b/search?q=foobar^", "cc-divergence");
        EXCLUSIONS.put("http://www.example.com/a/c/../b/search?q=foobar`", "cc-divergence");
        EXCLUSIONS.put("http://www.example.com/a/c/../b/search?q=foobar|", "cc-divergence");
        EXCLUSIONS.put("http://x.com/?x[y]=1", "cc-divergence");
        EXCLUSIONS.put("http://www.example.com/p%zz%77%v", "cc-divergence");
        EXCLUSIONS.put("http://www.example.com/search?q=foobar%", "cc-divergence");
        EXCLUSIONS.put("http://www.example.com/search?q=foobar%2", "cc-divergence");
        // A bare host: crawler-commons guesses http://; FirstSeen does not guess a scheme.
        EXCLUSIONS.put("foo.com/index.html", "cc-divergence");
        // "b=" and "b" are different query strings to an application that reads them.
        EXCLUSIONS.put("http://foo.com/index?a=1&b=", "cc-divergence");
        EXCLUSIONS.put("http://foo.com/index?b=&a=1", "cc-divergence");
        // Parameter order and empty parameters: opt-in rules.
        for (String in :
                new String[] {
                    "http://example.com/?b=1&a=1",
                    "http://foo.com/foo.html?b=1&a=1",
                    "http://foo.com/index?b=2&a=1",
                    "http://foo.com/index?b=2&a=1#c",
                    "http://foo.com/index?b&a=1"
                }) {
            EXCLUSIONS.put(in, "opt-in:sort-query");
        }
        for (String in :
                new String[] {
                    "http://foo.com/index?b=1&a=1&",
                    "http://foo.com/index?&b=1&a=1",
                    "http://foo.com/index?&=1&a=1",
                    "http://foo.com/index?=1&b=1&a=1"
                }) {
            EXCLUSIONS.put(in, "opt-in:sort-query+strip-empty-params");
        }
        EXCLUSIONS.put("ftp://foo.com/index.html", "not-http");
        EXCLUSIONS.put("file:/path/index.html", "not-http");
        EXCLUSIONS.put("file:/var/www/html/////./bar/index.html", "not-http");
        EXCLUSIONS.put("file:/var/www/html/foo/../bar/index.html", "not-http");
        // Not http(s): rejected by FirstSeen (unsupported-scheme) or not a URL with a host.
        EXCLUSIONS.put("file:///foo/bar.txt", "not-http");
        EXCLUSIONS.put("ftp:/", "not-http");
        EXCLUSIONS.put("http:////", "not-http");
        EXCLUSIONS.put("http:///////", "not-http");
    }

    record Pair(String weird, String normalized) {}

    static List<Pair> pairs() throws Exception {
        List<Pair> out = new ArrayList<>();
        try (BufferedReader r =
                new BufferedReader(
                        new InputStreamReader(
                                CrawlerCommonsCorpusTest.class.getResourceAsStream(
                                        "/corpora/url/weirdToNormalizedUrls.csv"),
                                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String weird;
                String rest;
                if (line.startsWith("\"")) { // CSV quoting with "" for a quote
                    int close = line.indexOf("\",");
                    weird = line.substring(1, close).replace("\"\"", "\"");
                    rest = line.substring(close + 2);
                } else {
                    int comma = line.lastIndexOf(',');
                    weird = line.substring(0, comma);
                    rest = line.substring(comma + 1);
                }
                out.add(new Pair(weird, rest.trim()));
            }
        }
        return out;
    }

    @Test
    void weirdAndNormalizedShareACanonicalFormOrAreExcluded() throws Exception {
        Canonicalizer safe = Canonicalizer.defaults();
        List<String> failures = new ArrayList<>();
        int passed = 0;
        List<Pair> pairs = pairs();
        assertThat(pairs.stream().map(Pair::weird).toList())
                .as("every exclusion names a corpus entry")
                .containsAll(EXCLUSIONS.keySet());
        for (Pair p : pairs) {
            Canonicalization a = safe.canonicalize(p.weird());
            Canonicalization b = safe.canonicalize(p.normalized());
            boolean same = a.isAccepted() && b.isAccepted() && a.url().equals(b.url());
            String tag = EXCLUSIONS.get(p.weird());
            if (same) {
                passed++;
                assertThat(tag).as("excluded but passes: %s", p.weird()).isNull();
            } else if (tag == null) {
                failures.add(p.weird() + " -> " + a + " but " + p.normalized() + " -> " + b);
            } else if (tag.startsWith("opt-in:")) {
                EnumSet<OptInRule> rules = EnumSet.noneOf(OptInRule.class);
                for (String name : tag.substring("opt-in:".length()).split("\\+")) {
                    rules.add(OptInRule.byName(name));
                }
                Canonicalizer with =
                        new Canonicalizer(
                                Set.of("http", "https"),
                                8192,
                                new CanonicalProfile(rules, List.of()));
                assertThat(with.canonicalize(p.weird()).url())
                        .as("%s under %s", p.weird(), rules)
                        .isNotNull()
                        .isEqualTo(with.canonicalize(p.normalized()).url());
            }
        }
        assertThat(failures).as("%d of %d pairs pass", passed, pairs.size()).isEmpty();
        assertThat(pairs.size()).isGreaterThan(100);
    }

    @Test
    void invalidUrlsAreRejectedWithoutThrowing() throws Exception {
        Canonicalizer safe = Canonicalizer.defaults();
        try (BufferedReader r =
                new BufferedReader(
                        new InputStreamReader(
                                getClass().getResourceAsStream("/corpora/url/invalidUrls.csv"),
                                StandardCharsets.UTF_8))) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                Canonicalization c = safe.canonicalize(line.trim());
                assertThat(c.isAccepted()).as(line).isFalse();
                n++;
            }
            assertThat(n).isEqualTo(2);
        }
    }
}
