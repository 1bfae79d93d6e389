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
}
