package dev.firstseen.config.internal;

import java.util.Collection;

/** The option name a misspelt one most likely meant, for the messages that refuse it. */
public final class NearestName {
    private NearestName() {}

    /** Edits (inserted, deleted or replaced characters) within which a name is suggested. */
    static final int MAX_EDITS = 2;

    /**
     * The name in {@code names} fewest edits from {@code key}, if at most {@link #MAX_EDITS}; the
     * first such in iteration order on a tie; null if none is that close.
     */
    public static String of(String key, Collection<String> names) {
        String best = null;
        int bestDistance = MAX_EDITS + 1;
        for (String n : names) {
            int d = distance(key, n, bestDistance);
            if (d < bestDistance) {
                best = n;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance of {@code a} and {@code b}, or {@code cap} if it is at least that. */
    static int distance(String a, String b, int cap) {
        if (Math.abs(a.length() - b.length()) >= cap) {
            return cap;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int replace = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(replace, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return Math.min(prev[b.length()], cap);
    }
}
