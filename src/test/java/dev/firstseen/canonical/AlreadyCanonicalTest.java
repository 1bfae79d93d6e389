package dev.firstseen.canonical;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firstseen.tools.CrawlStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link AlreadyCanonical} answers early for URLs the rules leave as they are. Its one promise is
 * that an answer equals the rules' answer; a wrong answer would give one page two canonical forms
 * and emit it twice. Held here against the rules over the conformance corpora, the benchmark's
 * crawl stream, the property test's random URLs, and single-character edits of every canonical form
 * among them, which put each character class at each position of a URL that is otherwise canonical.
 */
class AlreadyCanonicalTest {

    private final Canonicalizer canon = Canonicalizer.defaults();

    @ParameterizedTest(name = "{0} -> answered early: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "https://example.com/|true",
                "http://www.site-1.co.uk/2024/5/article-7.html|true",
                "https://example.com/item?id=7&lang=en|true",
                "https://example.com/a//b/|true",
                "https://example.com/%2F%C3%A9?q=%25|true",
                "https://xn--bcher-kva.de/|true",
                "https://a..b/|true",
                "HTTPS://example.com/|false", // scheme case
                "https://Example.com/|false", // host case
                "https://example.com|false", // empty path becomes '/'
                "https://example.com:443/|false", // port
                "https://user@example.com/|false", // userinfo
                "https://example.com./|false", // trailing dot
                "https://1.2.3.4/|false", // IPv4
                "https://example.0x1f/|false", // ends in a number
                "https://[::1]/|false", // IPv6
                "https://example.com/a/./b|false", // dot segment
                "https://example.com/a/..|false", // dot segment at the end
                "https://example.com/%7e|false", // escape of an unreserved character
                "https://example.com/%2f|false", // lower-case hex
                "https://example.com/%zz|false", // not an escape
                "https://example.com/a\\b|false", // backslash
                "https://example.com/?|false", // empty query
                "https://example.com/#top|false", // fragment
                "https://example.com/a b|false", // space
                "https://example.com/é|false", // non-ASCII
                "https://example.com/?q='x'|false", // query encode set
                "ftp://example.com/|false", // scheme not covered
                "mailto:a@example.com|false",
                "https:///example.com/|false", // extra slash
            })
    void answersOnlyForCanonicalUrlsOfItsShape(String url, boolean early) {
        Canonicalization c = AlreadyCanonical.check(url, true, true, 8192);
        assertThat(c != null).as(url).isEqualTo(early);
        if (early) {
            assertThat(c.url()).isEqualTo(url);
            assertSameAsRules(url, c);
        }
    }

    @Test
    void refusesWhatTheCanonicalizerWouldReject() {
        assertThat(AlreadyCanonical.check("https://example.com/", true, false, 8192)).isNull();
        assertThat(AlreadyCanonical.check("http://example.com/", false, true, 8192)).isNull();
        String longUrl = "https://example.com/" + "a".repeat(100);
        assertThat(AlreadyCanonical.check(longUrl, true, true, longUrl.length())).isNotNull();
        assertThat(AlreadyCanonical.check(longUrl, true, true, longUrl.length() - 1)).isNull();
        String longLabel = "https://" + "a".repeat(64) + ".com/";
        assertThat(AlreadyCanonical.check(longLabel, true, true, 8192)).isNull();
        assertThat(canon.canonicalize(longLabel).isAccepted()).isFalse();
    }

    @Test
    void aCanonicalizerWithOptInRulesDoesNotUseIt() {
        Canonicalizer withRules =
                new Canonicalizer(
                        Set.of("http", "https"),
                        8192,
                        new CanonicalProfile(
                                EnumSet.of(OptInRule.STRIP_WWW),
                                CanonicalProfile.DEFAULT_TRACKING_PARAMETERS));
        // Canonical under the safe rules, so the check would answer with the URL itself.
        assertThat(withRules.canonicalize("https://www.example.com/").url())
                .isEqualTo("https://example.com/");
    }

    @Test
    void everyAnswerEqualsTheRules() throws Exception {
        Set<String> inputs = new LinkedHashSet<>();
        for (JsonNode n : WptConformanceTest.httpCases()) {
            inputs.add(n.get("input").asText());
            if (n.hasNonNull("href")) {
                inputs.add(n.get("href").asText());
            }
        }
        for (CrawlerCommonsCorpusTest.Pair p : CrawlerCommonsCorpusTest.pairs()) {
            inputs.add(p.weird());
            inputs.add(p.normalized());
        }
        CrawlStream stream = new CrawlStream(7, 2_000, 0.01);
        for (int i = 0; i < 20_000; i++) {
            inputs.add(new String(stream.next(), StandardCharsets.UTF_8));
        }
        for (int len = 62; len <= 65; len++) { // labels and hosts at their limits
            String label = "a".repeat(len);
            inputs.add("https://" + label + ".example.com/");
            inputs.add("https://www." + label + ".com/");
            inputs.add("https://example." + label + "/");
            String host = (label + ".").repeat(3) + "b".repeat(253 - 3 * (len + 1) + len - 63);
            inputs.add("https://" + host + "/");
            inputs.add("https://" + host + "c/");
        }
        SplittableRandom r = new SplittableRandom(12);
        for (int i = 0; i < 50_000; i++) {
            inputs.add(CanonicalizerPropertyTest.randomInput(r));
        }
        // Canonical forms, and each with one character replaced, inserted or removed.
        List<String> canonical = new ArrayList<>();
        for (String in : inputs) {
            Canonicalization c = canon.canonicalizeByRules(in);
            if (c.isAccepted()) {
                canonical.add(c.url());
            }
        }
        String alphabet = "aZ09-._~/\\?#%:@[] \t\"'<>`{}|^&=+;,!$*()é\u00ad\ud800\u0000\u007f";
        for (String u : canonical) {
            inputs.add(u);
            for (int k = 0; k < 4; k++) {
                int at = r.nextInt(u.length() + 1);
                char c = alphabet.charAt(r.nextInt(alphabet.length()));
                String edited =
                        switch (k % 3) {
                            case 0 -> u.substring(0, at) + c + u.substring(at);
                            case 1 ->
                                    at < u.length()
                                            ? u.substring(0, at) + c + u.substring(at + 1)
                                            : u + c;
                            default ->
                                    at < u.length() ? u.substring(0, at) + u.substring(at + 1) : u;
                        };
                inputs.add(edited);
                // Escapes next to the edit: "%2" + c, upper and lower hex.
                inputs.add(u.substring(0, at) + "%" + Integer.toHexString(r.nextInt(256)) + c);
                inputs.add(
                        u.substring(0, at)
                                + "%"
                                + Integer.toHexString(r.nextInt(256)).toUpperCase(Locale.ROOT)
                                + u.substring(at));
            }
        }
        int answered = 0;
        for (String in : inputs) {
            Canonicalization early = AlreadyCanonical.check(in, true, true, 8192);
            if (early != null) {
                answered++;
                assertSameAsRules(in, early);
            }
        }
        // Not vacuous: most canonical forms, and many edits of them, are answered early.
        assertThat(answered).as("answered early of %d inputs", inputs.size()).isGreaterThan(20_000);
        long canonicalAnswered =
                canonical.stream()
                        .filter(u -> AlreadyCanonical.check(u, true, true, 8192) != null)
                        .count();
        assertThat(canonicalAnswered).isGreaterThan(canonical.size() / 2);
    }

    private void assertSameAsRules(String in, Canonicalization early) {
        Canonicalization rules = canon.canonicalizeByRules(in);
        assertThat(rules.isAccepted()).as("rules accept %s", in).isTrue();
        assertThat(early.url()).as("url of %s", in).isEqualTo(rules.url());
        assertThat(early.host()).as("host of %s", in).isEqualTo(rules.host());
        assertThat(early.hostType()).as("host type of %s", in).isEqualTo(rules.hostType());
        assertThat(early.fetchable()).as("fetchable of %s", in).isEqualTo(rules.fetchable());
    }
}
