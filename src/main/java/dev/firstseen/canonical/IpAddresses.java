package dev.firstseen.canonical;

/**
 * IP literal parsing and serialization as the WHATWG URL Standard defines it (IPv4 parser, IPv6
 * parser, IPv6 serializer). Every spelling of an address maps to one canonical string, so {@code
 * http://0x7f.1/}, {@code http://2130706433/} and {@code http://127.0.0.1/} share a key.
 */
final class IpAddresses {
    private IpAddresses() {}

    /**
     * True if the last dot-separated label (after an optional trailing dot) is a number, which
     * makes the whole host an IPv4 address or invalid (WHATWG "ends in a number checker").
     */
    static boolean endsInNumber(String host) {
        int end = host.length();
        if (end > 0 && host.charAt(end - 1) == '.') {
            end--;
        }
        int start = host.lastIndexOf('.', end - 1) + 1;
        if (start >= end) {
            return false;
        }
        boolean digits = true;
        for (int i = start; i < end; i++) {
            char c = host.charAt(i);
            if (c < '0' || c > '9') {
                digits = false;
                break;
            }
        }
        if (digits) {
            return true;
        }
        if (end - start >= 2
                && host.charAt(start) == '0'
                && (host.charAt(start + 1) == 'x' || host.charAt(start + 1) == 'X')) {
            for (int i = start + 2; i < end; i++) {
                if (PercentEncoding.hexValue(host.charAt(i)) < 0) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** Parses a WHATWG IPv4 host (1 to 4 parts, decimal, octal or hex); returns -1 if invalid. */
    static long parseIpv4(String host) {
        int end = host.length();
        if (end > 0 && host.charAt(end - 1) == '.') {
            end--;
        }
        long[] parts = new long[4];
        int n = 0;
        int start = 0;
        while (true) {
            int dot = host.indexOf('.', start);
            int partEnd = dot < 0 || dot > end ? end : dot;
            if (n == 4) {
                return -1;
            }
            long v = parseNumber(host, start, partEnd);
            if (v < 0) {
                return -1;
            }
            parts[n++] = v;
            if (partEnd >= end) {
                break;
            }
            start = partEnd + 1;
        }
        for (int i = 0; i < n - 1; i++) {
            if (parts[i] > 255) {
                return -1;
            }
        }
        if (parts[n - 1] >= 1L << (8 * (5 - n))) {
            return -1;
        }
        long ipv4 = parts[n - 1];
        for (int i = 0; i < n - 1; i++) {
            ipv4 += parts[i] << (8 * (3 - i));
        }
        return ipv4;
    }

    /** One IPv4 part; -1 if empty or invalid; values past 2^32 are capped (they fail anyway). */
    private static long parseNumber(String s, int from, int to) {
        if (from >= to) {
            return -1;
        }
        int radix = 10;
        if (to - from >= 2 && s.charAt(from) == '0' && (s.charAt(from + 1) | 0x20) == 'x') {
            radix = 16;
            from += 2;
        } else if (to - from >= 2 && s.charAt(from) == '0') {
            radix = 8;
            from += 1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            int d = PercentEncoding.hexValue(s.charAt(i));
            if (d < 0 || d >= radix) {
                return -1;
            }
            v = Math.min(v * radix + d, 1L << 33);
        }
        return v;
    }

    static String formatIpv4(long ipv4) {
        return ((ipv4 >>> 24) & 0xFF)
                + "."
                + ((ipv4 >>> 16) & 0xFF)
                + "."
                + ((ipv4 >>> 8) & 0xFF)
                + "."
                + (ipv4 & 0xFF);
    }

    /** Parses the text between '[' and ']'; returns 8 pieces, or null if invalid. */
    static int[] parseIpv6(String s, int from, int to) {
        int[] address = new int[8];
        int pieceIndex = 0;
        int compress = -1;
        int p = from;
        if (p < to && s.charAt(p) == ':') {
            if (p + 1 >= to || s.charAt(p + 1) != ':') {
                return null;
            }
            p += 2;
            pieceIndex++;
            compress = pieceIndex;
        }
        while (p < to) {
            if (pieceIndex == 8) {
                return null;
            }
            if (s.charAt(p) == ':') {
                if (compress != -1) {
                    return null;
                }
                p++;
                pieceIndex++;
                compress = pieceIndex;
                continue;
            }
            int value = 0;
            int length = 0;
            while (length < 4 && p < to && PercentEncoding.hexValue(s.charAt(p)) >= 0) {
                value = value * 16 + PercentEncoding.hexValue(s.charAt(p));
                p++;
                length++;
            }
            if (p < to && s.charAt(p) == '.') {
                if (length == 0 || pieceIndex > 6) {
                    return null;
                }
                p -= length;
                int numbersSeen = 0;
                while (p < to) {
                    int piece = -1;
                    if (numbersSeen > 0) {
                        if (s.charAt(p) == '.' && numbersSeen < 4) {
                            p++;
                        } else {
                            return null;
                        }
                    }
                    if (p >= to || !isDigit(s.charAt(p))) {
                        return null;
                    }
                    while (p < to && isDigit(s.charAt(p))) {
                        int d = s.charAt(p) - '0';
                        if (piece == -1) {
                            piece = d;
                        } else if (piece == 0) {
                            return null;
                        } else {
                            piece = piece * 10 + d;
                        }
                        if (piece > 255) {
                            return null;
                        }
                        p++;
                    }
                    address[pieceIndex] = address[pieceIndex] * 0x100 + piece;
                    numbersSeen++;
                    if (numbersSeen == 2 || numbersSeen == 4) {
                        pieceIndex++;
                    }
                }
                if (numbersSeen != 4) {
                    return null;
                }
                break;
            } else if (p < to && s.charAt(p) == ':') {
                p++;
                if (p >= to) {
                    return null;
                }
            } else if (p < to) {
                return null;
            }
            address[pieceIndex] = value;
            pieceIndex++;
        }
        if (compress != -1) {
            int swaps = pieceIndex - compress;
            pieceIndex = 7;
            while (pieceIndex != 0 && swaps > 0) {
                int tmp = address[pieceIndex];
                address[pieceIndex] = address[compress + swaps - 1];
                address[compress + swaps - 1] = tmp;
                pieceIndex--;
                swaps--;
            }
        } else if (pieceIndex != 8) {
            return null;
        }
        return address;
    }

    /** RFC 5952 text form: lower-case hex, the first longest run of 2+ zero pieces as "::". */
    static String formatIpv6(int[] address) {
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (address[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && address[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(41).append('[');
        boolean ignore0 = false;
        for (int i = 0; i < 8; i++) {
            if (ignore0 && address[i] == 0) {
                continue;
            }
            ignore0 = false;
            if (i == bestStart) {
                sb.append(i == 0 ? "::" : ":");
                ignore0 = true;
                continue;
            }
            sb.append(Integer.toHexString(address[i]));
            if (i != 7) {
                sb.append(':');
            }
        }
        return sb.append(']').toString();
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
