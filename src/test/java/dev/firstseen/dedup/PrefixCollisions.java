package dev.firstseen.dedup;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.Op;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What approximate mode's filter may get wrong, checked URL by URL instead of by a count: a URL can
 * be answered "seen" when it was not, or stay "seen" after its own forget, only if another URL of
 * its key shares the top bits of its fingerprint that the key's narrowest class keeps (class 0's
 * width, the fewest any class compares). Any other wrong answer is a lost prefix or a forget that
 * did not take, which a count of drops within the rate's bound could hide.
 */
final class PrefixCollisions {
    private PrefixCollisions() {}

    /**
     * The URLs that {@code surplus} (times committed less times expected, by URL) says were
     * committed more or fewer times than expected, and that no collision of prefixes of class 0's
     * width explains: more, and no URL of the same key that the input forgets shares the prefix;
     * fewer, and no other URL of the same key does (in generations, {@code dedup.forget-after},
     * class 0 is a generation's first). {@code cfg} gives the fingerprint function and class 0;
     * when a test runs several first-class sizes, pass the config with the smallest.
     */
    static List<String> unexplained(
            DedupConfig cfg, List<CanonicalUrl> input, Map<String, Integer> surplus) {
        int width =
                FingerprintFilterMath.classFor(
                                cfg.expectedUrlsPerKey(), cfg.generationFalsePositiveRate(), 0)
                        .width;
        Map<String, List<Long>> urlsOfKey = new HashMap<>();
        Map<String, List<Long>> forgottenOfKey = new HashMap<>();
        for (CanonicalUrl u : input) {
            if (u.canonical != null) {
                long hi = cfg.fingerprints().of(u.canonical).hi;
                urlsOfKey.computeIfAbsent(u.key, k -> new ArrayList<>()).add(hi);
                if (u.op == Op.FORGET) {
                    forgottenOfKey.computeIfAbsent(u.key, k -> new ArrayList<>()).add(hi);
                }
            }
        }
        List<String> unexplained = new ArrayList<>();
        Set<String> done = new HashSet<>();
        for (CanonicalUrl u : input) {
            Integer d = surplus.get(u.canonical);
            if (d == null || d == 0 || !done.add(u.canonical)) {
                continue;
            }
            long hi = cfg.fingerprints().of(u.canonical).hi;
            Map<String, List<Long>> suspects = d > 0 ? forgottenOfKey : urlsOfKey;
            boolean explained =
                    suspects.getOrDefault(u.key, List.of()).stream()
                            .anyMatch(h -> h != hi && Long.numberOfLeadingZeros(h ^ hi) >= width);
            if (!explained) {
                unexplained.add(u.canonical + " committed " + (d > 0 ? "+" : "") + d);
            }
        }
        return unexplained;
    }

    /**
     * The URLs of {@code expected} missing from {@code emitted} that share no prefix of class 0's
     * width with another URL of their key in {@code input} (which holds every URL the filter was
     * given): drops that no false positive explains.
     */
    static List<String> unexplainedDrops(
            DedupConfig cfg,
            List<CanonicalUrl> input,
            Collection<String> expected,
            Collection<String> emitted) {
        Map<String, Integer> surplus = new HashMap<>();
        expected.forEach(c -> surplus.put(c, -1));
        emitted.forEach(c -> surplus.merge(c, 1, Integer::sum));
        surplus.values().removeIf(d -> d > 0); // emitted beyond expected is checked by the callers
        return unexplained(cfg, input, surplus);
    }
}
