package dev.firstseen.tools;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Seeded hostile input for the bad-input flood test: every record it makes must end on the
 * dead-letter topic, none may fail the job. Kinds: random bytes, invalid UTF-8 inside a URL, values
 * of 1 MiB, null values (tombstones), empty and blank values, JSON without a usable {@code url}
 * (missing, a number, null, an array, an object, truncated, nested too deep), control characters in
 * the host, hosts over the DNS limits, host labels too long for IDNA (raw, percent-encoded and as
 * JSON escapes), duplicate {@code url} keys, content after the JSON object, unknown ops, every
 * scheme a crawler meets besides http(s), broken authorities and ports. {@code HostileRecordsTest}
 * checks each kind is rejected by the job's own decoder and canonicalizer.
 */
public final class HostileRecords {
    /** Number of kinds; {@link #kind(int)} makes one of each. */
    public static final int KINDS = 30;

    private static final String[] SCHEMES = {
        "mailto:a@b.example",
        "javascript:alert(1)",
        "ftp://ftp.example.com/pub/",
        "file:///etc/passwd",
        "data:text/html,<b>x</b>",
        "tel:+4420",
        "ws://chat.example.com/",
        "wss://chat.example.com/",
        "urn:isbn:0451450523",
        "about:blank",
        "chrome://settings",
        "blob:https://example.com/uuid",
        "sms:+123",
        "irc://irc.example.net/",
        "gopher://g.example/",
        "news:comp.lang.java",
        "magnet:?xt=urn:btih:abc",
        "intent://scan/#Intent;end",
        "ssh://h/",
        "webcal://example.com/cal.ics"
    };

    private final SplittableRandom rnd;
    private long made;

    public HostileRecords(long seed) {
        this.rnd = new SplittableRandom(seed);
    }

    /** The next hostile value; may be null. One in 500 is 1 MiB. */
    public byte[] next() {
        made++;
        if (made % 500 == 0) {
            return megabyte();
        }
        return kind(rnd.nextInt(KINDS));
    }

    public long made() {
        return made;
    }

    /** One record of kind {@code k} (0 to {@link #KINDS} - 1). */
    public byte[] kind(int k) {
        switch (k) {
            case 0:
                return randomBytes();
            case 1: // a lead byte without its continuation, inside an otherwise fine URL
                return concat(utf8("http://example.com/caf"), new byte[] {(byte) 0xC3, '/'});
            case 2: // an overlong encoding of '/'
                return concat(utf8("http://example.com/a"), new byte[] {(byte) 0xC0, (byte) 0xAF});
            case 3: // an unpaired surrogate, encoded
                return concat(
                        utf8("http://example.com/"),
                        new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80});
            case 4:
                return null;
            case 5:
                return new byte[0];
            case 6:
                return utf8(" \t\r\n ");
            case 7:
                return utf8("{\"href\":\"http://example.com/" + rnd.nextInt(1000) + "\"}");
            case 8:
                return utf8("{\"url\":" + rnd.nextInt() + "}");
            case 9:
                return utf8("{\"url\":null,\"depth\":1}");
            case 10:
                return utf8("{\"url\":[\"http://example.com/\"]}");
            case 11:
                return utf8("{\"url\":{\"href\":\"http://example.com/\"}}");
            case 12:
                return utf8("{\"url\":\"http://example.com/" + rnd.nextInt(1000));
            case 13:
                return utf8("[".repeat(5000) + "]".repeat(5000));
            case 14:
                return utf8("{\"url\":\"\"}");
            case 15: // a NUL and other control characters in the host
                return utf8("http://exa\u0000mple" + rnd.nextInt(1000) + ".com/");
            case 16:
                return utf8("http://ex\u0007am\u001bple" + rnd.nextInt(1000) + ".com/");
            case 17: // a label over 63 octets
                return utf8("http://" + "a".repeat(64 + rnd.nextInt(100)) + ".com/");
            case 18: // a host over 253 octets
                return utf8("http://" + "abcdefghi.".repeat(30 + rnd.nextInt(200)) + "com/");
            case 19:
                return utf8(SCHEMES[rnd.nextInt(SCHEMES.length)]);
            case 20:
                return utf8("http://example.com:" + (65536 + rnd.nextInt(1_000_000)) + "/");
            case 21:
                return utf8("http://[::1/" + rnd.nextInt(1000));
            case 22:
                return utf8("http://:" + (1 + rnd.nextInt(65535)) + "/no-host"); // empty host
            case 23:
                return utf8("//example.com/protocol-relative/" + rnd.nextInt(1000));
            case 24: // a label too long for IDNA: ICU threw on it before the length checks
                return utf8("http://" + "\u00fc".repeat(1001 + rnd.nextInt(500)) + ".com/");
            case 25: // the same in percent-encoded UTF-8, 6 KB of ASCII
                return utf8("http://" + "%C3%BC".repeat(1001 + rnd.nextInt(100)) + ".com/");
            case 26: // the same through JSON escapes
                return utf8("{\"url\":\"http://" + "\\u00fc".repeat(1001) + ".com/\"}");
            case 27: // two urls in one record: readers could disagree on which one it is
                return utf8(
                        "{\"url\":\"http://a-site.com/"
                                + rnd.nextInt(1000)
                                + "\",\"url\":\"http://b-site.com/8\"}");
            case 28: // content after the object
                return utf8("{\"url\":\"http://a-site.com/" + rnd.nextInt(1000) + "\"} trailing");
            default: // an op that does not exist
                return utf8(
                        "{\"url\":\"http://a-site.com/"
                                + rnd.nextInt(1000)
                                + "\",\"op\":\"delete\"}");
        }
    }

    private byte[] randomBytes() {
        byte[] b = new byte[1 + rnd.nextInt(300)];
        rnd.nextBytes(b);
        // Start with a byte that cannot begin UTF-8, so random bytes are never accidentally a URL.
        b[0] = (byte) 0xFF;
        return b;
    }

    private byte[] megabyte() {
        byte[] b = new byte[1 << 20];
        byte[] prefix = utf8("http://example.com/");
        Arrays.fill(b, (byte) 'x');
        System.arraycopy(prefix, 0, b, 0, prefix.length);
        return b;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
