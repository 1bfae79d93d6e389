package dev.firstseen.canonical;

import dev.firstseen.canonical.Canonicalization.HostType;
import dev.firstseen.record.DeadLetterReason;
import dev.firstseen.record.internal.StrictUtf8;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Rule "host": one spelling per host.
 *
 * <ul>
 *   <li>escapes are decoded ({@code %65xample.com} is {@code example.com}); bytes that are not
 *       UTF-8 reject the URL;
 *   <li>internationalized names go to punycode by UTS #46 with the WHATWG URL Standard's flags (see
 *       {@link Idna}), and everything is lower-cased (RFC 3986 6.2.2.1);
 *   <li>trailing dots are removed, so the fully-qualified {@code example.com.} shares state with
 *       {@code example.com};
 *   <li>IPv4 in any WHATWG form and IPv6 are written in their one canonical form;
 *   <li>forbidden characters, an empty host, a name over 253 characters or a label over 63 reject
 *       the URL: no DNS server answers for it.
 * </ul>
 */
final class HostRule {
    private HostRule() {}

    static final int MAX_HOST_LENGTH = 253;
    static final int MAX_LABEL_LENGTH = 63;

    /** The canonical host and its kind. */
    record Host(String name, HostType type) {}

    /** WHATWG forbidden domain code points, ASCII part (plus '%', which decoding has removed). */
    private static final boolean[] FORBIDDEN = new boolean[128];

    static {
        for (int c = 0; c <= 0x20; c++) {
            FORBIDDEN[c] = true;
        }
        FORBIDDEN[0x7F] = true;
        for (char c : "#%/:<>?@[\\]^|".toCharArray()) {
            FORBIDDEN[c] = true;
        }
    }

    static Host apply(String s, int from, int to) throws Rejected {
        if (from >= to) {
            throw new Rejected(DeadLetterReason.BAD_HOST, "empty host");
        }
        if (s.charAt(from) == '[') {
            if (s.charAt(to - 1) != ']') {
                throw new Rejected(DeadLetterReason.BAD_HOST, "unterminated IPv6 literal");
            }
            int[] address = IpAddresses.parseIpv6(s, from + 1, to - 1);
            if (address == null) {
                throw new Rejected(DeadLetterReason.BAD_HOST, "invalid IPv6 literal");
            }
            return new Host(IpAddresses.formatIpv6(address), HostType.IPV6);
        }
        Host plain = plainDomain(s, from, to);
        return plain != null ? plain : fullRule(s, from, to);
    }

    /**
     * The host of almost every URL a crawler sees, in one pass: ASCII, no escape, no forbidden
     * character, no trailing dot, within the length limits and not ending in a number. For such a
     * host the full rule only lower-cases it, so this gives what {@link #fullRule} gives, or null
     * when the host needs the full rule.
     */
    static Host plainDomain(String s, int from, int to) {
        if (to - from > MAX_HOST_LENGTH || s.charAt(to - 1) == '.') {
            return null;
        }
        boolean upper = false;
        int labelStart = from;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= 128 || FORBIDDEN[c]) { // '%' is forbidden too: escapes take the full rule
                return null;
            }
            if (c == '.') {
                if (i - labelStart > MAX_LABEL_LENGTH) {
                    return null;
                }
                labelStart = i + 1;
            }
            upper |= c >= 'A' && c <= 'Z';
        }
        if (to - labelStart > MAX_LABEL_LENGTH) {
            return null;
        }
        String host = s.substring(from, to);
        if (upper) {
            host = host.toLowerCase(Locale.ROOT); // ASCII: only A-Z change
        }
        return IpAddresses.endsInNumber(host) ? null : new Host(host, HostType.DOMAIN);
    }

    /** Every step of the rule, for hosts {@link #plainDomain} leaves to it; not for IPv6. */
    static Host fullRule(String s, int from, int to) throws Rejected {
        String host = s.substring(from, to);
        if (host.indexOf('%') >= 0) {
            host = percentDecode(host);
        }
        host = toAsciiLowerCase(host);
        int end = host.length();
        while (end > 0 && host.charAt(end - 1) == '.') {
            end--;
        }
        if (end == 0) {
            throw new Rejected(DeadLetterReason.BAD_HOST, "empty host");
        }
        host = host.substring(0, end);
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c >= 128 || FORBIDDEN[c]) {
                throw new Rejected(
                        DeadLetterReason.BAD_HOST,
                        String.format(Locale.ROOT, "forbidden character U+%04X in host", (int) c));
            }
        }
        if (IpAddresses.endsInNumber(host)) {
            long ipv4 = IpAddresses.parseIpv4(host);
            if (ipv4 < 0) {
                throw new Rejected(
                        DeadLetterReason.BAD_HOST,
                        "host ends in a number but is not an IPv4 address");
            }
            return new Host(IpAddresses.formatIpv4(ipv4), HostType.IPV4);
        }
        checkLengths(host);
        return new Host(host, HostType.DOMAIN);
    }

    private static String toAsciiLowerCase(String host) throws Rejected {
        boolean ascii = true;
        boolean upper = false;
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c >= 128) {
                ascii = false;
                break;
            }
            upper |= c >= 'A' && c <= 'Z';
        }
        if (!ascii) {
            host = Idna.toAscii(host);
            upper = false;
        }
        if (!upper) {
            return host;
        }
        char[] chars = host.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            char c = chars[i];
            if (c >= 'A' && c <= 'Z') {
                chars[i] = (char) (c + 32);
            }
        }
        return new String(chars);
    }

    private static void checkLengths(String host) throws Rejected {
        if (host.length() > MAX_HOST_LENGTH) {
            throw new Rejected(
                    DeadLetterReason.HOST_TOO_LONG,
                    "host has " + host.length() + " characters, more than " + MAX_HOST_LENGTH);
        }
        int labelStart = 0;
        for (int i = 0; i <= host.length(); i++) {
            if (i == host.length() || host.charAt(i) == '.') {
                if (i - labelStart > MAX_LABEL_LENGTH) {
                    throw new Rejected(
                            DeadLetterReason.HOST_TOO_LONG,
                            "host label has "
                                    + (i - labelStart)
                                    + " characters, more than "
                                    + MAX_LABEL_LENGTH);
                }
                labelStart = i + 1;
            }
        }
    }

    private static String percentDecode(String host) throws Rejected {
        ByteBuffer bytes = ByteBuffer.allocate(host.length() * 3);
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c == '%' && i + 2 < host.length()) {
                int hi = PercentEncoding.hexValue(host.charAt(i + 1));
                int lo = hi >= 0 ? PercentEncoding.hexValue(host.charAt(i + 2)) : -1;
                if (lo >= 0) {
                    bytes.put((byte) ((hi << 4) | lo));
                    i += 2;
                    continue;
                }
            }
            if (c < 128) {
                bytes.put((byte) c);
            } else {
                int cp = host.codePointAt(i);
                bytes.put(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(cp) - 1;
            }
        }
        bytes.flip();
        try {
            return StrictUtf8.newDecoder().decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw new Rejected(DeadLetterReason.BAD_HOST, "escaped host bytes are not UTF-8");
        }
    }
}
