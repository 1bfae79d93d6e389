package dev.firstseen.dedup;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares the guarded settings a restored job was checkpointed with against the current ones. A
 * different canonicalization profile or key mode would look up every known URL under a different
 * identity or key and re-emit it; another IDNA (ICU, Unicode) version or public suffix list can do
 * that to some URLs. State written before a setting was recorded is not checked for it; switching
 * from approximate to exact would consult an exact store that was never written. Both are refused
 * with a message saying what to do.
 */
final class SettingsGuard {
    private SettingsGuard() {}

    static final String PROFILE = "canonical.profile";
    static final String KEY_MODE = "keying.mode";
    static final String DEDUP_MODE = "dedup.mode";
    static final String IDNA = "canonical.idna";
    static final String SUFFIX_LIST = "keying.public-suffix-list";
    static final String HOT_KEYS = "keying.hot-domains";

    static List<String> encode(Map<String, String> settings) {
        List<String> out = new ArrayList<>();
        settings.forEach((k, v) -> out.add(k + "=" + v));
        return out;
    }

    static Map<String, String> decode(Iterable<String> entries) {
        Map<String, String> m = new TreeMap<>();
        for (String e : entries) {
            int eq = e.indexOf('=');
            if (eq > 0) {
                m.put(e.substring(0, eq), e.substring(eq + 1));
            }
        }
        return m;
    }

    /** What a change of each checked setting does to the URLs seen so far. */
    private static final Map<String, String> CONSEQUENCES =
            Map.of(
                    PROFILE,
                    "every URL seen so far would be looked up under a different identity and"
                            + " emitted again",
                    KEY_MODE,
                    "every URL seen so far would be looked up under a different identity and"
                            + " emitted again",
                    IDNA,
                    "(a library upgrade) some URLs may get another canonical form and be emitted"
                            + " again",
                    SUFFIX_LIST,
                    "(a library upgrade) some URLs may get another key and be emitted again");

    /** Returns the problems found; empty if the restore is safe. */
    static List<String> check(Map<String, String> previous, Map<String, String> current) {
        List<String> problems = new ArrayList<>();
        for (String key : List.of(PROFILE, KEY_MODE, IDNA, SUFFIX_LIST)) {
            String before = previous.get(key);
            String now = current.get(key);
            if (before != null && now != null && !before.equals(now)) {
                problems.add(
                        String.format(
                                Locale.ROOT,
                                "'%s' was '%s' when the state was written and is '%s' now: %s",
                                key,
                                before,
                                now,
                                CONSEQUENCES.get(key)));
            }
        }
        // State from before salting recorded nothing: it salted no key.
        String hotBefore = previous.getOrDefault(HOT_KEYS, "none");
        String hotNow = current.getOrDefault(HOT_KEYS, "none");
        if (!hotBefore.equals(hotNow)) {
            problems.add(
                    String.format(
                            Locale.ROOT,
                            "'keying.hot-domains' and 'keying.hot-domain-salts' were '%s' when the"
                                    + " state was written and are '%s' now: the URLs of every"
                                    + " domain added, removed or re-salted would be looked up"
                                    + " under other keys and emitted again",
                            hotBefore,
                            hotNow));
        }
        if (DedupMode.APPROXIMATE.name().equals(previous.get(DEDUP_MODE))
                && DedupMode.EXACT.name().equals(current.get(DEDUP_MODE))) {
            problems.add(
                    "'dedup.mode' was APPROXIMATE when the state was written and is EXACT now:"
                            + " the exact store holds none of the URLs seen so far, so Bloom"
                            + " false positives would re-emit them");
        }
        return problems;
    }
}
