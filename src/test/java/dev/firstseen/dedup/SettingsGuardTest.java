package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.keying.PartitionKeyer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which changes between the state's settings and the running job's a restore refuses. */
class SettingsGuardTest {
    private static final Map<String, String> NOW =
            Map.of(
                    SettingsGuard.PROFILE, "rfc3986-safe/1",
                    SettingsGuard.KEY_MODE, "DOMAIN",
                    SettingsGuard.DEDUP_MODE, "EXACT",
                    SettingsGuard.IDNA, "icu4j-76.1.0.0/unicode-16.0.0.0",
                    SettingsGuard.SUFFIX_LIST, "sha256:0123456789abcdef");

    @Test
    void hotDomainsAreGuardedAndOldStateSaltedNone() {
        Map<String, String> salted = new java.util.TreeMap<>(NOW);
        salted.put(SettingsGuard.HOT_KEYS, "8:hot.com");
        Map<String, String> none = new java.util.TreeMap<>(NOW);
        none.put(SettingsGuard.HOT_KEYS, "none");
        // State from before salting (no entry) restores into a job without hot domains...
        assertThat(SettingsGuard.check(NOW, none)).isEmpty();
        // ...but not into one with them, nor salted state into a job without or with others.
        assertThat(SettingsGuard.check(NOW, salted)).hasSize(1);
        assertThat(SettingsGuard.check(salted, none).get(0)).contains("'keying.hot-domains'");
        Map<String, String> more = new java.util.TreeMap<>(NOW);
        more.put(SettingsGuard.HOT_KEYS, "8:big.com,hot.com");
        assertThat(SettingsGuard.check(salted, more)).hasSize(1);
        assertThat(SettingsGuard.check(salted, salted)).isEmpty();
    }

    @Test
    void theSameSettingsPass() {
        assertThat(SettingsGuard.check(NOW, NOW)).isEmpty();
    }

    @Test
    void anotherIdnaOrSuffixListIsRefusedLikeAnotherProfile() {
        for (String key :
                new String[] {
                    SettingsGuard.PROFILE,
                    SettingsGuard.KEY_MODE,
                    SettingsGuard.IDNA,
                    SettingsGuard.SUFFIX_LIST
                }) {
            Map<String, String> before = new java.util.TreeMap<>(NOW);
            before.put(key, "something else");
            assertThat(SettingsGuard.check(before, NOW)).as(key).hasSize(1);
            assertThat(SettingsGuard.check(before, NOW).get(0)).contains("'" + key + "'");
        }
    }

    @Test
    void stateWrittenBeforeAVersionWasRecordedIsNotRefused() {
        Map<String, String> old =
                Map.of(
                        SettingsGuard.PROFILE, "rfc3986-safe/1",
                        SettingsGuard.KEY_MODE, "DOMAIN",
                        SettingsGuard.DEDUP_MODE, "EXACT");
        assertThat(SettingsGuard.check(old, NOW)).isEmpty();
    }

    @Test
    void theVersionsAreKnown() {
        assertThat(Canonicalizer.idnaVersion()).startsWith("icu4j-").contains("/unicode-");
        assertThat(PartitionKeyer.suffixListVersion()).matches("sha256:[0-9a-f]{16}");
    }
}
