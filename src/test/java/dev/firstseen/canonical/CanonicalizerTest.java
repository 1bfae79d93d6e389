package dev.firstseen.canonical;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.canonical.Canonicalization.HostType;
import dev.firstseen.record.DeadLetterReason;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Table tests, one group per rule: input, expected canonical form, and why. */
class CanonicalizerTest {
    private final Canonicalizer canon = Canonicalizer.defaults();

    private void same(String input, String expected) {
        Canonicalization c = canon.canonicalize(input);
        assertThat(c.isAccepted()).as("accepted: %s (%s)", input, c).isTrue();
        assertThat(c.url()).as(input).isEqualTo(expected);
        // Idempotent: the canonical form is its own canonical form.
        assertThat(canon.canonicalize(expected).url())
                .as("idempotent " + expected)
                .isEqualTo(expected);
    }

    private void rejected(String input, DeadLetterReason reason) {
        Canonicalization c = canon.canonicalize(input);
        assertThat(c.isAccepted()).as("rejected: %s -> %s", input, c).isFalse();
        assertThat(c.reason()).as(input).isEqualTo(reason);
        assertThat(c.detail()).isNotBlank();
    }

    /**
     * Issue 12.2: ICU threw ICUInputTooLongException on a host label of more than 1,000 code points
     * with any non-ASCII character, before the length checks, and the exception restarted the job
     * on the same record forever.
     */
    @Test
    void hostsTooLongForIdnaAreRejectedNotThrown() {
        Canonicalizer c = Canonicalizer.defaults();
        for (String url :
                new String[] {
                    "http://" + "\u00fc".repeat(1001) + ".com/",
                    "http://" + "%C3%BC".repeat(1001) + ".com/",
                    "http://a" + "\u00fc".repeat(5000) + "/",
                    "https://x." + "\u00df".repeat(1200) + ".de/p"
                }) {
            Canonicalization r = c.canonicalize(url);
            assertThat(r.isAccepted()).as(url.substring(0, 20)).isFalse();
            assertThat(r.reason()).isEqualTo(DeadLetterReason.HOST_TOO_LONG);
        }
        // Soft hyphens are mapped away before Punycode sees the label: a long input host that
        // is short after mapping stays valid, as in browsers.
        Canonicalization mapped = c.canonicalize("http://" + "\u00ad".repeat(1500) + "\u00fc.com/");
        assertThat(mapped.url()).isEqualTo("http://xn--tda.com/");
    }

    /** Issue 12.5: inputs whose canonical form was not a fixed point, now stable. */
    @Test
    void canonicalFormsAreFixedPoints() {
        Canonicalizer safe = Canonicalizer.defaults();
        Canonicalizer all =
                new Canonicalizer(
                        Set.of("http", "https"),
                        8192,
                        new CanonicalProfile(
                                java.util.EnumSet.allOf(OptInRule.class),
                                CanonicalProfile.DEFAULT_TRACKING_PARAMETERS));
        String[][] table = {
            // input, canonical (safe profile)
            {"http://a.example/%%36%31", "http://a.example/%%361"},
            {"http://a.example/%3%619", "http://a.example/%3%619"},
            {"http://a.example/%%32e", "http://a.example/%%32e"},
            {"http://a.example/%61%62", "http://a.example/ab"},
            {"http://a.example/%%41", "http://a.example/%%41"},
        };
        for (String[] row : table) {
            String once = safe.canonicalize(row[0]).url();
            assertThat(once).as(row[0]).isEqualTo(row[1]);
            assertThat(safe.canonicalize(once).url()).as(once).isEqualTo(once);
        }
        String once = all.canonicalize("http://a.example/%2e;jsessionid=x").url();
        assertThat(once).isEqualTo("http://a.example/");
        assertThat(all.canonicalize("http://a.example/b/%2E%2e;jsessionid=y/c").url())
                .isEqualTo("http://a.example/c");
    }

    @Test
    void whitespaceRule() {
        same("  http://example.com/a  ", "http://example.com/a"); // surrounding spaces
        same("\u0000\u001fhttp://example.com/\u0007", "http://example.com/"); // C0 controls at ends
        same("http://exa\tmple.com/a\nb\r", "http://example.com/ab"); // tab, LF, CR inside
        same("http://example.com/a b", "http://example.com/a%20b"); // inner space is data
    }

    @Test
    void schemeRule() {
        same("HTTP://example.com/", "http://example.com/"); // scheme case
        same("HtTpS://example.com/", "https://example.com/");
        rejected("mailto:someone@example.com", DeadLetterReason.UNSUPPORTED_SCHEME);
        rejected("javascript:void(0)", DeadLetterReason.UNSUPPORTED_SCHEME);
        rejected("ftp://example.com/", DeadLetterReason.UNSUPPORTED_SCHEME); // not configured
        rejected("//example.com/a", DeadLetterReason.MISSING_SCHEME); // scheme-relative
        rejected("example.com/a", DeadLetterReason.MISSING_SCHEME); // bare host
        rejected("/a/b", DeadLetterReason.MISSING_SCHEME);
        rejected("   ", DeadLetterReason.EMPTY);
    }

    @Test
    void specialSchemeSlashes() {
        same("http:example.com/a", "http://example.com/a"); // WHATWG: slashes optional
        same("http:\\\\example.com\\a\\b", "http://example.com/a/b"); // backslashes are slashes
        same("http:////example.com/", "http://example.com/"); // extra slashes skipped
    }

    @Test
    void userinfoRule() {
        same("http://user:pass@example.com/", "http://example.com/");
        same("http://a@b@example.com/", "http://example.com/"); // last '@' ends userinfo
    }

    @Test
    void hostRule() {
        same("http://EXAMPLE.COM/", "http://example.com/"); // case
        same("http://example.com./", "http://example.com/"); // trailing dot, fully qualified
        same("http://%65xample.com/", "http://example.com/"); // escaped host letters
        same("http://bücher.de/", "http://xn--bcher-kva.de/"); // IDN to punycode
        same("http://B%C3%BCcher.DE/", "http://xn--bcher-kva.de/"); // escaped UTF-8 IDN
        same("http://xn--bcher-kva.de/", "http://xn--bcher-kva.de/"); // already punycode
        same("http://例え.テスト/", "http://xn--r8jz45g.xn--zckzah/");
        same("http://a_b.example.com/", "http://a_b.example.com/"); // underscore is allowed
        rejected("http:///", DeadLetterReason.BAD_HOST); // empty
        rejected("http://exa mple.com/", DeadLetterReason.BAD_HOST); // forbidden space
        rejected("http://exa<mple.com/", DeadLetterReason.BAD_HOST);
        rejected("http://%zz.com/", DeadLetterReason.BAD_HOST); // '%' stays, and is forbidden
        rejected("http://%ff.com/", DeadLetterReason.BAD_HOST); // escaped bytes not UTF-8
        rejected("http://" + "a".repeat(64) + ".com/", DeadLetterReason.HOST_TOO_LONG);
        rejected("http://" + "abcdefghi.".repeat(26) + "com/", DeadLetterReason.HOST_TOO_LONG);
    }

    @Test
    void ipv4Forms() {
        same("http://127.0.0.1/", "http://127.0.0.1/");
        same("http://2130706433/", "http://127.0.0.1/"); // one decimal number
        same("http://0x7f.1/", "http://127.0.0.1/"); // hex, fewer parts
        same("http://0177.0.0.01/", "http://127.0.0.1/"); // octal
        same("http://127.1/", "http://127.0.0.1/");
        same("http://192.168.0.1./", "http://192.168.0.1/"); // trailing dot
        rejected("http://256.0.0.1/", DeadLetterReason.BAD_HOST);
        rejected("http://1.2.3.4.5/", DeadLetterReason.BAD_HOST);
        rejected("http://foo.09/", DeadLetterReason.BAD_HOST); // ends in a number, not IPv4
        assertThat(canon.canonicalize("http://127.1/").hostType()).isEqualTo(HostType.IPV4);
    }

    @Test
    void ipv6Forms() {
        same("http://[2001:DB8:0:0:0:0:0:1]/", "http://[2001:db8::1]/"); // compress, lower
        same("http://[::1]:8080/", "http://[::1]:8080/");
        same("http://[0:0:0:0:0:ffff:7f00:1]/", "http://[::ffff:7f00:1]/");
        same("http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/"); // embedded IPv4
        same("http://[2001:db8:0:1:1:1:1:1]/", "http://[2001:db8:0:1:1:1:1:1]/"); // one 0 stays
        rejected("http://[::1/", DeadLetterReason.BAD_HOST);
        rejected("http://[1:2:3:4:5:6:7:8:9]/", DeadLetterReason.BAD_HOST);
        rejected("http://[::1]x/", DeadLetterReason.BAD_HOST);
        assertThat(canon.canonicalize("http://[::1]/").hostType()).isEqualTo(HostType.IPV6);
    }

    @Test
    void portRule() {
        same("http://example.com:80/", "http://example.com/"); // default port
        same("https://example.com:443/", "https://example.com/");
        same("http://example.com:/", "http://example.com/"); // empty port
        same("http://example.com:0080/", "http://example.com/"); // leading zeros
        same("https://example.com:80/", "https://example.com:80/"); // not https's default
        same("http://example.com:8080/", "http://example.com:8080/");
        rejected("http://example.com:65536/", DeadLetterReason.BAD_PORT);
        rejected("http://example.com:8o/", DeadLetterReason.BAD_PORT);
    }

    @Test
    void pathRule() {
        same("http://example.com", "http://example.com/"); // empty path
        same("http://example.com?q", "http://example.com/?q");
        same("http://example.com/a/./b/../c", "http://example.com/a/c"); // dot segments
        same("http://example.com/../a", "http://example.com/a"); // above the root
        same("http://example.com/a/..", "http://example.com/"); // trailing '..'
        same("http://example.com/a/.", "http://example.com/a/"); // trailing '.'
        same("http://example.com/a/%2e%2E/b", "http://example.com/b"); // escaped dots
        same("http://example.com/a/.%2e/b", "http://example.com/b");
        same("http://example.com/A/B", "http://example.com/A/B"); // case is kept
        same("http://example.com/a//b/", "http://example.com/a//b/"); // empty segments kept
        same("http://example.com/a/", "http://example.com/a/"); // trailing slash kept
    }

    @Test
    void percentEncodingRule() {
        same("http://example.com/%7Euser", "http://example.com/~user"); // unreserved decoded
        same("http://example.com/%41%62%2D", "http://example.com/Ab-");
        same("http://example.com/a%2fb", "http://example.com/a%2Fb"); // reserved kept, hex upper
        same("http://example.com/a%2Fb", "http://example.com/a%2Fb");
        same("http://example.com/100%25", "http://example.com/100%25"); // %25 never decoded
        same("http://example.com/a%3Bb", "http://example.com/a%3Bb"); // %3B kept
        same("http://example.com/50%", "http://example.com/50%"); // lone '%' left alone
        same("http://example.com/%zz", "http://example.com/%zz");
        same("http://example.com/caf\u00e9", "http://example.com/caf%C3%A9"); // UTF-8
        same("http://example.com/caf%c3%a9", "http://example.com/caf%C3%A9");
        same("http://example.com/\ud83d\ude00", "http://example.com/%F0%9F%98%80"); // astral
        same("http://example.com/\ud800", "http://example.com/%EF%BF%BD"); // lone surrogate
        same("http://example.com/a\"b<c>", "http://example.com/a%22b%3Cc%3E");
        same("http://example.com/a|b^c", "http://example.com/a|b^c"); // WHATWG leaves these
    }

    @Test
    void queryRule() {
        same("http://example.com/?", "http://example.com/"); // empty query dropped
        same("http://example.com/?#f", "http://example.com/");
        same("http://example.com/?b=2&a=1", "http://example.com/?b=2&a=1"); // order kept
        same("http://example.com/?a=%7e&b=%2b+", "http://example.com/?a=~&b=%2B+"); // + kept
        same("http://example.com/?q=a b", "http://example.com/?q=a%20b");
        same("http://example.com/?q='x'", "http://example.com/?q=%27x%27");
        same("http://example.com/?q=%26", "http://example.com/?q=%26"); // encoded '&' kept
        same("http://example.com/?a?b/c", "http://example.com/?a?b/c");
    }

    @Test
    void fragmentRule() {
        same("http://example.com/a#top", "http://example.com/a");
        same("http://example.com/a?b#c?d", "http://example.com/a?b");
        same("http://example.com#", "http://example.com/");
    }

    @Test
    void lengthLimit() {
        Canonicalizer small = new Canonicalizer(Set.of("http"), 40);
        assertThat(small.canonicalize("http://example.com/" + "a".repeat(21)).isAccepted())
                .isTrue();
        Canonicalization c = small.canonicalize("http://example.com/" + "é".repeat(4));
        assertThat(c.reason()).isEqualTo(DeadLetterReason.CANONICAL_TOO_LONG);
    }

    @Test
    void onlyKnownSchemesCanBeConfigured() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new Canonicalizer(Set.of("http", "gopher"), 8192))
                .hasMessageContaining("gopher")
                .hasMessageContaining("choose from");
        assertThat(
                        new Canonicalizer(Set.of("HTTP", "ftp"), 8192)
                                .canonicalize("ftp://h:21/a")
                                .url())
                .isEqualTo("ftp://h/a");
    }
}
