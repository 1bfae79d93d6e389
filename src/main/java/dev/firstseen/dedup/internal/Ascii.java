package dev.firstseen.dedup.internal;

/** ASCII checks of the strings the dedup stage hashes and keeps. */
public final class Ascii {
    private Ascii() {}

    /**
     * True if every char of {@code s} is below 0x80: its chars are then its UTF-8 bytes, so it can
     * be hashed or stored as they are, without encoding it.
     */
    public static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
