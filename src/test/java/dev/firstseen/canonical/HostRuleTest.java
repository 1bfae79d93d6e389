package dev.firstseen.canonical;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The host rule's one-pass path for plain domains ({@link HostRule#plainDomain}) against its full
 * rule: where the one-pass path answers, the full rule must give the same host, and every host must
 * get the same answer or the same rejection through {@link HostRule#apply} as through the full
 * rule.
 */
class HostRuleTest {
    private static final String ALPHABET = "abcxyzABCXYZ0123456789..--_%%41é中 #@:/\\^|~!$&'()*+,;=";

    @Test
    void plainDomainsGetWhatTheFullRuleGives() throws Exception {
        Random random = new Random(20261125);
        int plain = 0;
        int full = 0;
        for (int n = 0; n < 200_000; n++) {
            String host = randomHost(random);
            if (host.isEmpty() || host.charAt(0) == '[') {
                continue;
            }
            String s = "http://" + host + "/";
            int from = 7;
            int to = 7 + host.length();
            HostRule.Host fast = HostRule.plainDomain(s, from, to);
            Object expected = outcome(() -> HostRule.fullRule(s, from, to));
            if (fast != null) {
                plain++;
                assertThat(fast).as(host).isEqualTo(expected);
            } else {
                full++;
            }
            assertThat(outcome(() -> HostRule.apply(s, from, to))).as(host).isEqualTo(expected);
        }
        // Both paths were taken often enough for the comparison to mean something.
        assertThat(plain).isGreaterThan(20_000);
        assertThat(full).isGreaterThan(20_000);
    }

    @Test
    void table() throws Exception {
        String[][] cases = {
            {"Example.COM", "example.com"},
            {"example.com.", "example.com"},
            {"%65xample.com", "example.com"},
            {"a.b-c.d_e", "a.b-c.d_e"},
            {"0x7f.1", "127.0.0.1"},
            {"b\u00fccher.example", "xn--bcher-kva.example"},
            {"a".repeat(63) + ".com", "a".repeat(63) + ".com"},
        };
        for (String[] c : cases) {
            String s = "http://" + c[0] + "/";
            assertThat(HostRule.apply(s, 7, 7 + c[0].length()).name()).as(c[0]).isEqualTo(c[1]);
        }
        for (String bad :
                new String[] {"a".repeat(64) + ".com", "a b.com", "x.".repeat(127) + "x"}) {
            String s = "http://" + bad + "/";
            assertThat(outcome(() -> HostRule.apply(s, 7, 7 + bad.length())))
                    .as(bad)
                    .isInstanceOf(String.class);
        }
    }

    private interface HostCall {
        HostRule.Host call() throws Rejected;
    }

    /** The host, or the rejection as "REASON: message". */
    private static Object outcome(HostCall call) {
        try {
            return call.call();
        } catch (Rejected r) {
            return r.reason + ": " + r.getMessage();
        }
    }

    private static String randomHost(Random random) {
        StringBuilder b = new StringBuilder();
        int shape = random.nextInt(10);
        if (shape == 0) { // long labels and long hosts, around the limits
            int labels = 1 + random.nextInt(5);
            for (int i = 0; i < labels; i++) {
                if (i > 0) {
                    b.append('.');
                }
                b.append("a".repeat(58 + random.nextInt(8)));
            }
            return b.toString();
        }
        if (shape == 1) {
            int n = 240 + random.nextInt(20);
            for (int i = 0; i < n; i++) {
                b.append(i % 8 == 7 ? '.' : 'q');
            }
            return b.toString();
        }
        int len = 1 + random.nextInt(24);
        boolean clean = shape < 6; // mostly letters, digits and dots, as real hosts
        for (int i = 0; i < len; i++) {
            b.append(
                    clean
                            ? ALPHABET.charAt(random.nextInt(26))
                            : ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        if (random.nextInt(5) == 0) {
            b.append(random.nextBoolean() ? ".com" : ".1");
        }
        return b.toString();
    }
}
