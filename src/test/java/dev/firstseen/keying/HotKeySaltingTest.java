package dev.firstseen.keying;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.Op;
import dev.firstseen.record.SourcePosition;
import dev.firstseen.record.UrlMessage;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;

/** Issue 11, hot keys: a hot domain's dedup state spread over salts, its frontier key kept. */
class HotKeySaltingTest {
    private static final HotKeySalting HOT = new HotKeySalting(Set.of("hot.com"), 8);

    @Test
    void aHotKeysUrlsSpreadOverEverySaltAndOthersAreNotSalted() {
        int[] counts = new int[8];
        for (int i = 0; i < 80_000; i++) {
            int salt = HOT.saltOf("hot.com", "http://hot.com/p/" + i);
            assertThat(salt).isBetween(0, 7);
            counts[salt]++;
        }
        for (int c : counts) {
            assertThat(c).isBetween(9_000, 11_000); // 10,000 ± 10%
        }
        assertThat(HOT.saltOf("cold.com", "http://cold.com/p/1")).isEqualTo(-1);
        assertThat(HotKeySalting.NONE.saltOf("hot.com", "http://hot.com/")).isEqualTo(-1);
    }

    /**
     * Golden: a URL's salt is part of the state format (it names the key its state lives under); a
     * change would look every hot URL up under another key.
     */
    @Test
    void saltsArePinned() {
        assertThat(HOT.saltOf("hot.com", "http://hot.com/")).isEqualTo(GOLDEN_SALT);
        CanonicalUrl u = new CanonicalUrl("u", "http://hot.com/", "hot.com", null, null);
        assertThat(HotKeySalting.stateKey(u)).isEqualTo("hot.com");
        u.salt = 3;
        assertThat(HotKeySalting.stateKey(u)).isEqualTo("hot.com#3");
        assertThat(HOT.guardValue()).isEqualTo("8:hot.com");
        assertThat(HotKeySalting.fromGuardValue("8:hot.com").guardValue()).isEqualTo("8:hot.com");
        assertThat(HotKeySalting.fromGuardValue(null).guardValue()).isEqualTo("none");
        assertThat(HotKeySalting.NONE.guardValue()).isEqualTo("none");
    }

    static final int GOLDEN_SALT = 7;

    /** At parallelism 2, a hot domain's eight state keys land on both dedup subtasks. */
    @Test
    void theSaltedKeysReachBothSubtasks() {
        Set<Integer> subtasks = new HashSet<>();
        for (int salt = 0; salt < 8; salt++) {
            subtasks.add(
                    KeyGroupRangeAssignment.assignKeyToParallelOperator(
                            "site0.com#" + salt, 128, 2));
        }
        assertThat(subtasks).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void forgetKeyOfAHotDomainGoesToEverySalt() throws Exception {
        var h = CanonicalizeAndKeyFunctionTest.harness(HOT);
        UrlMessage forget = new UrlMessage(null, null, new SourcePosition("in", 0, 1, 5L));
        forget.op = Op.FORGET_KEY;
        forget.opKey = "hot.com";
        h.processElement(new StreamRecord<>(forget));
        h.processElement(
                new StreamRecord<>(
                        new UrlMessage(
                                "http://www.hot.com/a", null, new SourcePosition("in", 0, 2, 5L))));
        List<CanonicalUrl> out = h.extractOutputValues();
        assertThat(out).hasSize(9);
        assertThat(out.subList(0, 8))
                .allMatch(u -> u.op == Op.FORGET_KEY && u.key.equals("hot.com"));
        assertThat(out.subList(0, 8).stream().map(u -> u.salt))
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(out.get(8).key).isEqualTo("hot.com");
        assertThat(out.get(8).salt).isEqualTo(HOT.saltOf("hot.com", out.get(8).canonical));
        h.close();
    }

    @Test
    void hotDomainsMustBeKeysAndTheyAreGuarded() {
        Configuration c = new Configuration();
        c.setString("kafka.bootstrap-servers", "b:9092");
        c.setString("keying.hot-domains", "www.hot.com");
        assertThatThrownBy(() -> FirstSeenSettings.from(c))
                .hasMessageContaining("'keying.hot-domains' names 'www.hot.com'")
                .hasMessageContaining("its key is 'hot.com'");
        c.setString("keying.hot-domains", "hot.com");
        c.setString("keying.hot-domain-salts", "1");
        assertThatThrownBy(() -> FirstSeenSettings.from(c))
                .hasMessageContaining("'keying.hot-domain-salts' must be between 2 and 1024");
        c.setString("keying.hot-domain-salts", "4");
        FirstSeenSettings s = FirstSeenSettings.from(c);
        assertThat(s.hotKeySalting().guardValue()).isEqualTo("4:hot.com");
        assertThat(s.dedupConfig().guarded()).containsEntry(HotKeySalting.GUARD, "4:hot.com");
    }
}
