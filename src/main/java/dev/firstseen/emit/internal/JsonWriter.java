package dev.firstseen.emit.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A minimal JSON writer for FirstSeen's fixed output records, written for the hot path: one
 * growable byte array, no object model, no per-record allocation besides the result. Strings are
 * escaped per RFC 8259 (quote, backslash and control characters; everything else as UTF-8), so the
 * output is what any JSON parser reads back. Not thread-safe; reuse one per subtask.
 */
public final class JsonWriter {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf = new byte[512];
    private int len;

    public JsonWriter reset() {
        len = 0;
        return this;
    }

    public JsonWriter raw(char c) {
        ensure(1);
        buf[len++] = (byte) c;
        return this;
    }

    /** Appends ASCII text as is (field names, punctuation, pre-serialized JSON values). */
    public JsonWriter raw(String ascii) {
        ensure(ascii.length());
        for (int i = 0; i < ascii.length(); i++) {
            buf[len++] = (byte) ascii.charAt(i);
        }
        return this;
    }

    /** Appends bytes as they are (ASCII constants: field names and punctuation). */
    public JsonWriter raw(byte[] ascii) {
        ensure(ascii.length);
        System.arraycopy(ascii, 0, buf, len, ascii.length);
        len += ascii.length;
        return this;
    }

    /** Where the next byte goes: a mark for {@link #again}. */
    public int mark() {
        return len;
    }

    /** Appends again what was written from mark {@code from} to mark {@code to}. */
    public JsonWriter again(int from, int to) {
        ensure(to - from);
        System.arraycopy(buf, from, buf, len, to - from);
        len += to - from;
        return this;
    }

    /** Appends pre-serialized JSON (any text) as UTF-8. */
    public JsonWriter rawUtf8(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    /** Appends {@code v} in decimal, as {@link Long#toString(long)} writes it, without a String. */
    public JsonWriter number(long v) {
        if (v == Long.MIN_VALUE) {
            return raw(Long.toString(v)); // no positive counterpart to write the digits of
        }
        ensure(20);
        if (v < 0) {
            buf[len++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long x = v; x >= 10; x /= 10) {
            digits++;
        }
        int end = len + digits;
        for (int i = end - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        len = end;
        return this;
    }

    /** Appends a quoted, escaped JSON string. */
    public JsonWriter string(String s) {
        string(s, Integer.MAX_VALUE);
        return this;
    }

    /**
     * Appends a quoted, escaped JSON string of at most {@code maxBytes} bytes between the quotes:
     * whole characters and whole escape sequences only, so the result is always valid JSON and
     * valid UTF-8. Returns false if {@code s} was cut.
     */
    public boolean string(String s, int maxBytes) {
        if ((long) s.length() * 6 <= maxBytes) {
            appendEscaped(s); // no character takes more than 6 bytes: nothing can be cut
            return true;
        }
        ensure(2);
        buf[len++] = '"';
        int start = len;
        int i = 0;
        // While the budget left holds 6 bytes per character, a run of characters needs no check:
        // write room/6 of them unchecked, and repeat. Only the last few characters are measured.
        while (i < s.length()) {
            int safe = Math.min(s.length() - i, (maxBytes - (len - start)) / 6);
            if (safe == 0) {
                break;
            }
            ensure(safe * 6);
            for (int end = i + safe; i < end; i++) {
                char c = s.charAt(i);
                if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                    buf[len++] = (byte) c;
                } else {
                    i = appendChar(s, i); // a surrogate pair's 4 bytes fit the pair's 12
                }
            }
        }
        for (; i < s.length(); i++) {
            int need = need(s, i);
            if (len - start + need > maxBytes) {
                break;
            }
            i = appendChar(s, i);
        }
        ensure(1);
        buf[len++] = '"';
        return i == s.length();
    }

    private void appendEscaped(String s) {
        ensure(s.length() * 6 + 2);
        buf[len++] = '"';
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                buf[len++] = (byte) c;
            } else {
                i = appendChar(s, i);
            }
        }
        buf[len++] = '"';
    }

    /** Appends character {@code i} of {@code s}, escaped; returns the index of its last char. */
    private int appendChar(String s, int i) {
        ensure(6);
        char c = s.charAt(i);
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            buf[len++] = (byte) c;
        } else if (c == '"' || c == '\\') {
            buf[len++] = '\\';
            buf[len++] = (byte) c;
        } else if (c < 0x20) {
            buf[len++] = '\\';
            buf[len++] = 'u';
            buf[len++] = '0';
            buf[len++] = '0';
            buf[len++] = HEX[c >> 4];
            buf[len++] = HEX[c & 0xF];
        } else {
            return utf8(s, i);
        }
        return i;
    }

    /** Bytes that character {@code i} of {@code s} (with its low surrogate) takes in the output. */
    private static int need(String s, int i) {
        char c = s.charAt(i);
        if (c < 0x20) {
            return 6;
        }
        if (c < 0x80) {
            return c == '"' || c == '\\' ? 2 : 1;
        }
        if (c < 0x800) {
            return 2;
        }
        if (Character.isHighSurrogate(c)
                && i + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(i + 1))) {
            return 4;
        }
        return 3;
    }

    public JsonWriter bool(boolean b) {
        return raw(b ? "true" : "false");
    }

    public JsonWriter nullValue() {
        return raw("null");
    }

    private int utf8(String s, int i) {
        char c = s.charAt(i);
        int cp = c;
        if (Character.isHighSurrogate(c)
                && i + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(i + 1))) {
            cp = Character.toCodePoint(c, s.charAt(++i));
        } else if (Character.isSurrogate(c)) {
            cp = 0xFFFD; // a lone surrogate has no UTF-8 form
        }
        ensure(4);
        if (cp < 0x800) {
            buf[len++] = (byte) (0xC0 | (cp >> 6));
            buf[len++] = (byte) (0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            buf[len++] = (byte) (0xE0 | (cp >> 12));
            buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            buf[len++] = (byte) (0x80 | (cp & 0x3F));
        } else {
            buf[len++] = (byte) (0xF0 | (cp >> 18));
            buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
            buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            buf[len++] = (byte) (0x80 | (cp & 0x3F));
        }
        return i;
    }

    public byte[] toBytes() {
        return Arrays.copyOf(buf, len);
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }
}
