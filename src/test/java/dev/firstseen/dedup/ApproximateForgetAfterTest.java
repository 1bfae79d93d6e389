package dev.firstseen.dedup;

import static dev.firstseen.dedup.DedupOperatorTest.TEST_FINGERPRINTS;
import static dev.firstseen.dedup.DedupOperatorTest.accumulator;
import static dev.firstseen.dedup.DedupOperatorTest.checkpoint;
import static dev.firstseen.dedup.DedupOperatorTest.checkpointAll;
import static dev.firstseen.dedup.DedupOperatorTest.emitted;
import static dev.firstseen.dedup.DedupOperatorTest.processAtItsTime;
import static dev.firstseen.dedup.DedupOperatorTest.subtaskOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.Op;
import dev.firstseen.record.SourcePosition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code dedup.forget-after} in approximate mode: a key's filter keeps generations of {@code
 * forget-after / dedup.approximate.forget-generations}, and a generation is forgotten whole once it
 * ended {@code forget-after} ago. So a URL is never emitted again within {@code forget-after} of
 * its emission, and is new again from a generation later. Time moves through record timestamps, and
 * the processing time follows them ({@link #feed}), so keys' sweep timers fire as in a job.
 */
class ApproximateForgetAfterTest {
    private static final long DAY = 86_400_000L;
    private static final long WEEK = 7 * DAY;

    /** Generations of 2 days (a week in four, rounded up). */
    private static final long GENERATION = (WEEK + 3) / 4;

    private static final long T0 = 1_795_000_000_000L;

    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    private static CanonicalUrl at(String key, int page, long ts) {
        String c = "http://" + key + "/p/" + page;
        return new CanonicalUrl(c, c, key, null, new SourcePosition("in", 0, page, ts));
    }

    private static CanonicalUrl at(int page, long ts) {
        return at("d1.com", page, ts);
    }

    private static DedupConfig.Builder approximate(double p, int l1) {
        return DedupConfig.builder()
                .fingerprints(TEST_FINGERPRINTS)
                .mode(DedupMode.APPROXIMATE)
                .expectedUrlsPerKey(64)
                .falsePositiveRate(p)
                .recentCacheEntries(l1);
    }

    private static DedupConfig forgetting(int l1) {
        return approximate(1e-6, l1).forgetAfterMillis(WEEK).build();
    }

    private static long end(long t) {
        return (Math.floorDiv(t, GENERATION) + 1) * GENERATION;
    }

    private KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> harness(
            DedupConfig cfg, OperatorSubtaskState restore) throws Exception {
        return t.harness(cfg, 1, 0, restore);
    }

    /**
     * Feeds {@code urls}, moving the processing time up to each record's timestamp first (which
     * fires the timers due by then), as a job's clock is never behind its records' times.
     */
    private static void feed(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h,
            List<CanonicalUrl> urls)
            throws Exception {
        for (CanonicalUrl u : urls) {
            processAtItsTime(h, u);
        }
    }

    @Test
    void aUrlIsForgottenWithItsGenerationAndNotBefore() throws Exception {
        for (int l1 : new int[] {0, 1024}) {
            var h = harness(forgetting(l1), null);
            long forgotten = end(T0) + WEEK;
            feed(
                    h,
                    List.of(
                            at(1, T0),
                            at(1, T0 + WEEK - 1), // within forget-after of its emission
                            at(1, forgotten - 1), // its generation ended less than a week ago
                            at(1, forgotten), // now it did: new
                            at(1, forgotten + 1)));
            List<FrontierRecord> out = h.extractOutputValues();
            assertThat(out).as("L1 %d", l1).hasSize(2);
            assertThat(out.get(1).firstSeen).isEqualTo(forgotten);
            assertThat(out.get(1).revisit).isFalse();
            assertThat(accumulator(h, "expired")).isEqualTo(1);
            assertThat(accumulator(h, "duplicates")).isEqualTo(3);
        }
    }

    @Test
    void generationsSurviveCheckpointsAndOnlyTheOldOneIsForgotten() throws Exception {
        var h = harness(forgetting(0), null);
        List<CanonicalUrl> first = new ArrayList<>();
        for (int p = 0; p < 300; p++) {
            first.add(at(p, T0 + p));
        }
        feed(h, first);
        var restored = harness(forgetting(0), checkpoint(h, 1));
        long later = T0 + 3 * DAY; // a generation after the first
        List<CanonicalUrl> second = new ArrayList<>();
        for (int p = 0; p < 400; p++) { // 300 seen, 100 new
            second.add(at(p, later));
        }
        feed(restored, second);
        assertThat(emitted(restored)).hasSize(100).doesNotContain("http://d1.com/p/0");
        var again = harness(forgetting(0), checkpoint(restored, 2));
        long firstForgotten = end(T0) + WEEK;
        assertThat(firstForgotten).isLessThan(later + WEEK);
        List<CanonicalUrl> third = new ArrayList<>();
        for (int p = 0; p < 400; p++) {
            third.add(at(p, firstForgotten));
        }
        feed(again, third);
        // The first generation's 300 are new again; the second's 100 are a week old at most.
        assertThat(emitted(again)).hasSize(300).contains("http://d1.com/p/0");
        assertThat(emitted(again)).doesNotContain("http://d1.com/p/300");
        assertThat(accumulator(again, "expired")).isEqualTo(300);
    }

    @Test
    void anIdleKeyIsRemovedWholeByItsTimer() throws Exception {
        var h = t.harness(forgetting(1024), 1, 0, null);
        h.setProcessingTime(T0 + 1000); // the records below are not clamped
        List<CanonicalUrl> urls = new ArrayList<>();
        for (int p = 0; p < 50; p++) {
            urls.add(at(p, T0 + p));
        }
        urls.add(at("d2.com", 1, T0 + 1000));
        feed(h, urls);
        checkpoint(h, 1); // the filters go to keyed state
        h.setProcessingTime(end(T0 + 1000) + WEEK - 1);
        assertThat(accumulator(h, "expired")).isZero();
        h.setProcessingTime(end(T0 + 1000) + WEEK);
        assertThat(accumulator(h, "expired")).isEqualTo(51);
        var backend = h.getOperator().getKeyedStateBackend();
        for (String state :
                new String[] {"bloom-meta", "bloom-pages", "page-journal", "forget-sweep-timer"}) {
            try (var keys = backend.getKeys(state, VoidNamespace.INSTANCE)) {
                assertThat(keys.count()).as(state).isZero();
            }
        }
        // The keys start again from nothing.
        feed(h, List.of(at(1, end(T0 + 1000) + WEEK), at("d2.com", 1, end(T0 + 1000) + WEEK)));
        assertThat(emitted(h)).hasSize(53);
    }

    @Test
    void aKeyWrittenWithoutGenerationsJoinsThemWhenFirstLoaded() throws Exception {
        var before = harness(approximate(1e-6, 0).build(), null);
        List<CanonicalUrl> urls = new ArrayList<>();
        for (int p = 0; p < 200; p++) {
            urls.add(at(p, T0 + p));
        }
        feed(before, urls);
        var after = harness(forgetting(0), checkpoint(before, 1));
        long joined = T0 + 10 * DAY; // older than forget-after: still seen, from now on
        feed(after, List.of(at(0, joined), at(1, end(joined) + WEEK - 1)));
        assertThat(emitted(after)).isEmpty();
        feed(after, List.of(at(2, end(joined) + WEEK)));
        assertThat(emitted(after)).containsExactly("http://d1.com/p/2");
        assertThat(accumulator(after, "expired")).isEqualTo(200);
    }

    @Test
    void aForcedUrlIsForgottenAForgetAfterFromItsForce() throws Exception {
        var h = harness(forgetting(0), null);
        CanonicalUrl force = at(1, T0 + 5 * DAY);
        force.op = Op.FORCE;
        feed(h, List.of(at(1, T0), force, at(1, end(T0) + WEEK)));
        assertThat(emitted(h)).hasSize(2); // the sighting and the force; then still seen
        feed(h, List.of(at(1, end(T0 + 5 * DAY) + WEEK)));
        assertThat(emitted(h)).hasSize(3);
    }

    /** Rescaling moves each key's generations and its timer with its key group. */
    @Test
    void generationsAndTimersMoveWithTheirKeysOnRescale() throws Exception {
        DedupConfig cfg = forgetting(1024);
        var one = t.harness(cfg, 1, 0, null);
        List<CanonicalUrl> urls = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            for (int p = 0; p < 10; p++) {
                urls.add(at("d" + k + ".com", p, T0 + p));
            }
        }
        feed(one, urls);
        var two = t.rescaled(cfg, checkpoint(one, 1), 1, 2);
        for (CanonicalUrl u : urls) {
            processAtItsTime(two.get(subtaskOf(u.key, 2)), u);
        }
        assertThat(emitted(two.get(0))).isEmpty();
        assertThat(emitted(two.get(1))).isEmpty();
        var back = t.rescaled(cfg, checkpointAll(two, 2), 2, 1).get(0);
        back.setProcessingTime(end(T0) + WEEK - 1);
        assertThat(accumulator(back, "expired")).isZero();
        back.setProcessingTime(end(T0) + WEEK);
        assertThat(accumulator(back, "expired")).isEqualTo(200);
        try (var keys =
                back.getOperator()
                        .getKeyedStateBackend()
                        .getKeys("bloom-meta", VoidNamespace.INSTANCE)) {
            assertThat(keys.count()).isZero();
        }
    }

    /**
     * Over ten generations' worth of a stream, no URL is emitted again within forget-after of its
     * emission, every URL whose generation ended forget-after ago is new again unless the filter
     * dropped it, and the share of new URLs dropped stays within the configured rate: the five
     * generations alive at once each get a fifth of it. Fixed seed and fingerprint key.
     */
    @Test
    void noUrlReturnsEarlyAndTheDropsStayWithinTheRate() throws Exception {
        double p = 0.01;
        DedupConfig cfg = approximate(p, 0).forgetAfterMillis(WEEK).build();
        var h = harness(cfg, null);
        SplittableRandom rnd = new SplittableRandom(20261129);
        Map<String, Long> lastEmitted = new HashMap<>();
        int n = 60_000;
        long span = 10 * GENERATION;
        int shouldBeNew = 0;
        int droppedNew = 0;
        int early = 0;
        for (int i = 0; i < n; i++) {
            long ts = T0 + span * i / n;
            String key = "d" + (int) Math.floor(Math.pow(rnd.nextDouble(), 2) * 30) + ".com";
            CanonicalUrl u = at(key, rnd.nextInt(4000), ts);
            processAtItsTime(h, u);
            boolean out = !h.getOutput().isEmpty();
            h.getOutput().clear();
            Long last = lastEmitted.get(u.canonical);
            if (last != null && ts - last < WEEK && out) {
                early++;
            }
            boolean mustBeNew = last == null || ts >= end(last) + WEEK;
            if (mustBeNew) {
                shouldBeNew++;
                if (!out) {
                    droppedNew++;
                }
            }
            if (out) {
                lastEmitted.put(u.canonical, ts);
            }
        }
        assertThat(early).isZero();
        double rate = (double) droppedNew / shouldBeNew;
        // The bound is the configured rate; three standard deviations of a binomial at that rate.
        assertThat(rate).isLessThan(p + 3 * Math.sqrt(p / shouldBeNew));
        assertThat(shouldBeNew).isGreaterThan(n / 3);
        assertThat(accumulator(h, "expired")).isPositive();
    }
}
