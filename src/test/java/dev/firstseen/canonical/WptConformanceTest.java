package dev.firstseen.canonical;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The WHATWG URL parser tests (web-platform-tests {@code urltestdata.json}, vendored), for every
 * case whose input is an absolute http or https URL.
 *
 * <p>A case passes when FirstSeen reads the input as a browser does: a URL the browser parses to
 * {@code href} gets the same canonical form as {@code href} itself (our safe profile normalizes a
 * little further than a browser, for example it drops the fragment, so comparing canonical forms is
 * the fair test), and a URL the browser rejects is rejected. Every case that does not pass is
 * listed in {@link #EXCLUSIONS} with a tag saying why.
 */
class WptConformanceTest {

    /**
     * Input → why it does not pass. Tags:
     *
     * <ul>
     *   <li>{@code relative-with-base}: the case resolves a relative reference against a base URL
     *       of the same scheme ({@code http:foo.com} against {@code http://example.org/foo/bar}).
     *       FirstSeen has no base: extractors must send absolute URLs. Without a base, WHATWG reads
     *       these inputs as we do or rejects them.
     *   <li>{@code profile-difference}: FirstSeen rejects hosts no crawler can fetch, where a
     *       browser keeps them.
     * </ul>
     */
    static final Map<String, String> EXCLUSIONS = new LinkedHashMap<>();

    static {
        String base = "http://example.org/foo/bar";
        EXCLUSIONS.put(key("http:foo.com", base), "relative-with-base");
        EXCLUSIONS.put(key("http::@c:29", base), "relative-with-base");
        EXCLUSIONS.put(key("http:[61:27]/:foo", base), "relative-with-base");
        EXCLUSIONS.put(key("http:/example.com/", base), "relative-with-base");
        EXCLUSIONS.put(key("http:example.com/", base), "relative-with-base");
        EXCLUSIONS.put(key("http:", base), "relative-with-base");
        EXCLUSIONS.put(key("http:/", "http://example.com/"), "relative-with-base");
        // Trailing dots are removed so example.com. and example.com share state; a host of only
        // dots is then empty, and foo.09.. becomes foo.09, which ends in a number and is no
        // IPv4 address (WHATWG itself rejects foo.09). No DNS name resolves for any of them.
        EXCLUSIONS.put(key("http://./", null), "profile-difference");
        EXCLUSIONS.put(key("http://../", null), "profile-difference");
        EXCLUSIONS.put(key("http://foo.09..", null), "profile-difference");
    }

    static String key(String input, String base) {
        return input + " (base " + base + ")";
    }

    private final Canonicalizer canon = Canonicalizer.defaults();

    static List<JsonNode> httpCases() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        try (InputStream in =
                WptConformanceTest.class.getResourceAsStream("/corpora/url/wpt-urltestdata.json")) {
            for (JsonNode n : new ObjectMapper().readTree(in)) {
                if (!n.isObject()) {
                    continue; // comments
                }
                String input = n.get("input").asText();
                String trimmed = input.replaceAll("^[\\x00-\\x20]+", "").toLowerCase(Locale.ROOT);
                if (trimmed.startsWith("http:") || trimmed.startsWith("https:")) {
                    out.add(n);
                }
            }
        }
        return out;
    }

    @Test
    void httpCasesPassOrAreExcluded() throws Exception {
        List<String> failures = new ArrayList<>();
        int passed = 0;
        List<JsonNode> cases = httpCases();
        List<String> keys = new ArrayList<>();
        for (JsonNode n : cases) {
            keys.add(
                    key(
                            n.get("input").asText(),
                            n.hasNonNull("base") ? n.get("base").asText() : null));
        }
        assertThat(keys).as("every exclusion names a corpus case").containsAll(EXCLUSIONS.keySet());
        for (JsonNode n : cases) {
            String key =
                    key(
                            n.get("input").asText(),
                            n.hasNonNull("base") ? n.get("base").asText() : null);
            String verdict = verdict(n);
            if (verdict == null) {
                passed++;
                assertThat(EXCLUSIONS).as("excluded but passes: %s", key).doesNotContainKey(key);
            } else if (!EXCLUSIONS.containsKey(key)) {
                failures.add(verdict);
            }
        }
        assertThat(failures).as("%d of %d cases pass", passed, cases.size()).isEmpty();
        assertThat(cases.size()).isGreaterThan(300);
    }

    /** Null if the case passes, else a description. */
    private String verdict(JsonNode n) {
        String input = n.get("input").asText();
        Canonicalization got = canon.canonicalize(input);
        if (n.has("failure")) {
            return got.isAccepted()
                    ? String.format(
                            Locale.ROOT, "%s: browsers reject it, we gave %s", esc(input), got)
                    : null;
        }
        String href = n.get("href").asText();
        Canonicalization expected = canon.canonicalize(href);
        if (!got.isAccepted() || !expected.isAccepted()) {
            return String.format(
                    Locale.ROOT,
                    "%s: browsers give %s; we gave %s for it and %s for the href",
                    esc(input),
                    esc(href),
                    got,
                    expected);
        }
        return got.url().equals(expected.url())
                ? null
                : String.format(
                        Locale.ROOT,
                        "%s: browsers give %s (canonical %s); we gave %s",
                        esc(input),
                        esc(href),
                        expected.url(),
                        got.url());
    }

    private static String esc(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && !Character.isLetterOrDigit(c))) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
