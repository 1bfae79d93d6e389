package dev.firstseen.dedup;

import static dev.firstseen.dedup.DedupOperatorTest.accumulator;
import static dev.firstseen.dedup.DedupOperatorTest.checkpoint;
import static dev.firstseen.dedup.DedupOperatorTest.emitted;
import static dev.firstseen.dedup.DedupOperatorTest.feed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code dedup.forget-after} (issue 15): a URL not emitted for that long is new again, and a key's
 * store is swept of such entries. Time moves through record timestamps; the harness's processing
 * time is set far ahead so that they are not clamped.
 */
class ForgetAfterTest {
    private static final long DAY = 86_400_000L;
    private static final long T0 = 1_795_000_000_000L;

    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    private static CanonicalUrl at(int page, long ts) {
        String c = "http://d1.com/p/" + page;
        return new CanonicalUrl(c, c, "d1.com", null, new SourcePosition("in", 0, page, ts));
    }

    private static DedupConfig forgetting() {
        return DedupConfig.builder()
                .mode(DedupMode.EXACT)
                .expectedUrlsPerKey(100)
                .recentCacheEntries(1024)
                .forgetAfterMillis(7 * DAY)
                .build();
    }

    private KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> harness(
            OperatorSubtaskState restore) throws Exception {
        var h = t.harness(forgetting(), 1, 0, restore);
        h.setProcessingTime(T0 + 1000 * DAY);
        return h;
    }

    @Test
    void aUrlNotEmittedForTheTimeIsNewAgain() throws Exception {
        var h = harness(null);
        // Seen, repeated a day later (L1 answers), then after 8 days: new again, not a revisit.
        feed(h, List.of(at(1, T0), at(1, T0 + DAY), at(1, T0 + 8 * DAY), at(1, T0 + 9 * DAY)));
        List<FrontierRecord> out = h.extractOutputValues();
        assertThat(out).hasSize(2);
        assertThat(out.get(1).revisit).isFalse();
        assertThat(out.get(1).firstSeen).isEqualTo(T0 + 8 * DAY);
        // The 9-day sighting is a day after the new emission: a duplicate.
        assertThat(accumulator(h, "duplicates")).isEqualTo(2);
    }

    @Test
    void aKeysStoreIsSweptAndTheSweepSurvivesRestore() throws Exception {
        var h = harness(null);
        List<CanonicalUrl> old = new ArrayList<>();
        for (int p = 0; p < 200; p++) {
            old.add(at(p, T0 + p));
        }
        feed(h, old);
        // One new URL of the key 8 days later sweeps the 200 old entries out of the store.
        feed(h, List.of(at(1000, T0 + 8 * DAY)));
        assertThat(accumulator(h, "expired")).isEqualTo(200);
        OperatorSubtaskState snap = checkpoint(h, 1);
        var restored = harness(snap);
        List<CanonicalUrl> again = new ArrayList<>();
        for (int p = 0; p < 200; p++) {
            again.add(at(p, T0 + 8 * DAY + 1));
        }
        again.add(at(1000, T0 + 8 * DAY + 1)); // emitted just before: still seen
        feed(restored, again);
        assertThat(emitted(restored)).hasSize(200).doesNotContain("http://d1.com/p/1000");
    }

    @Test
    void anIdleKeyIsSweptByItsTimerAndRemovedWhole() throws Exception {
        var h = t.harness(forgetting(), 1, 0, null);
        h.setProcessingTime(T0 + 1000); // the records below are not clamped
        List<CanonicalUrl> urls = new ArrayList<>();
        for (int p = 0; p < 50; p++) {
            urls.add(at(p, T0 + p));
        }
        feed(h, urls);
        CanonicalUrl busy =
                new CanonicalUrl(
                        "http://d2.com/a",
                        "http://d2.com/a",
                        "d2.com",
                        null,
                        new SourcePosition("in", 0, 0, T0 + 1000));
        feed(h, List.of(busy));
        checkpoint(h, 1); // the filters' pages and metadata go to keyed state
        // A week later on the processing clock, both keys' idle timers fire: d1's entries are
        // all older than a week, and so is d2's single one.
        h.setProcessingTime(T0 + 7 * DAY + 1001);
        assertThat(accumulator(h, "expired")).isEqualTo(51);
        // Both keys were removed whole: no key has an exact store or Bloom metadata any more.
        var backend = h.getOperator().getKeyedStateBackend();
        for (String state : new String[] {"seen-64", "bloom-meta", "bloom-pages", "forget-sweep"}) {
            try (var keys =
                    backend.getKeys(state, org.apache.flink.runtime.state.VoidNamespace.INSTANCE)) {
                assertThat(keys.count()).as(state).isZero();
            }
        }
        OperatorSubtaskState snap = checkpoint(h, 2);
        var restored = t.harness(forgetting(), 1, 0, snap);
        restored.setProcessingTime(T0 + 8 * DAY);
        List<CanonicalUrl> again = new ArrayList<>();
        for (int p = 0; p < 50; p++) {
            again.add(at(p, T0 + 8 * DAY - 1));
        }
        feed(restored, again);
        assertThat(emitted(restored)).hasSize(50);
    }

    @Test
    void aBusyKeysTimerMovesOnSoItsRecentEntriesStay() throws Exception {
        var h = t.harness(forgetting(), 1, 0, null);
        h.setProcessingTime(T0);
        feed(h, List.of(at(1, T0))); // idle timer at T0 + 7 d
        h.setProcessingTime(T0 + 6 * DAY);
        feed(h, List.of(at(2, T0 + 6 * DAY))); // record sweep: nothing old; timer to T0 + 13 d
        h.setProcessingTime(T0 + 8 * DAY);
        feed(h, List.of(at(3, T0 + 8 * DAY))); // record sweep: p/1 goes; timer to T0 + 15 d
        assertThat(accumulator(h, "expired")).isEqualTo(1);
        // The replaced timers (7 d, 13 d) must not fire: the 13 d one would take p/2.
        h.setProcessingTime(T0 + 14 * DAY);
        assertThat(accumulator(h, "expired")).isEqualTo(1);
        OperatorSubtaskState snap = checkpoint(h, 1);
        var restored = t.harness(forgetting(), 1, 0, snap); // an empty L1: the store answers
        restored.setProcessingTime(T0 + 14 * DAY);
        feed(restored, List.of(at(2, T0 + 14 * DAY), at(3, T0 + 14 * DAY)));
        assertThat(emitted(restored)).containsExactly("http://d1.com/p/2"); // 8 days: forgotten
    }
}
