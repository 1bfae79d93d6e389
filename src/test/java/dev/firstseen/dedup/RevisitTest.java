package dev.firstseen.dedup;

import static dev.firstseen.dedup.DedupOperatorTest.checkpoint;
import static dev.firstseen.dedup.DedupOperatorTest.feed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dedup.revisit-after} (issue 15): time comes from the records' Kafka timestamps, so these
 * tests move time by writing timestamps, never by sleeping. The harness's processing time is 0,
 * which would clamp every timestamp to it, so the operator under test runs with a processing time
 * far ahead ({@link #LATER}).
 */
class RevisitTest {
    private static final long HOUR = 3_600_000L;
    private static final long T0 = 1_795_000_000_000L;
    private static final long LATER = T0 + 1000 * HOUR;

    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    /** Decision time and due-ness: recordTs, processingTime, lastEmitted, due. */
    @ParameterizedTest(name = "record {0}, processing {1}, last {2}: due {3}")
    @CsvSource({
        "0, 1000, 0, false", // 1 ms after: not due (2 h rule)
        "7200000, 9999999999, 0, true", // exactly 2 h later: due
        "7199999, 9999999999, 0, false",
        "99999999999, 7200000, 0, true", // a record from the future is clamped to processing time
        "99999999999, 7199999, 0, false",
        "-1, 7200000, 0, true", // no timestamp: processing time
    })
    void rule(long recordTs, long processing, long last, boolean due) {
        RevisitRule r = new RevisitRule(2 * HOUR);
        assertThat(r.due(last, RevisitRule.decisionTime(recordTs, processing))).isEqualTo(due);
    }

    private static CanonicalUrl at(int page, long ts) {
        String c = "http://d1.com/p/" + page;
        return new CanonicalUrl(c, c, "d1.com", null, new SourcePosition("in", 0, page, ts));
    }

    private static DedupConfig revisiting() {
        return DedupConfig.builder()
                .mode(DedupMode.EXACT)
                .expectedUrlsPerKey(100)
                .recentCacheEntries(1024)
                .revisitAfterMillis(2 * HOUR)
                .build();
    }

    private List<FrontierRecord> run(
            DedupConfig cfg, OperatorSubtaskState restore, List<CanonicalUrl> urls)
            throws Exception {
        var h = t.harness(cfg, 1, 0, restore);
        h.setProcessingTime(LATER);
        feed(h, urls);
        last = h;
        return h.extractOutputValues();
    }

    private org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness<
                    String, CanonicalUrl, FrontierRecord>
            last;

    @Test
    void aSeenUrlComesBackOnceItsTimeHasCome() throws Exception {
        List<CanonicalUrl> urls = new ArrayList<>();
        urls.add(at(1, T0));
        urls.add(at(1, T0 + HOUR)); // L1 answers: not due
        urls.add(at(1, T0 + 2 * HOUR)); // due: L1's time says so, L3 confirms
        urls.add(at(1, T0 + 2 * HOUR + 1)); // just emitted again: not due
        urls.add(at(1, T0 + 3 * HOUR)); // 1 h after the revisit: not due
        List<FrontierRecord> out = run(revisiting(), null, urls);
        assertThat(out).hasSize(2);
        assertThat(out.get(0).revisit).isFalse();
        assertThat(out.get(0).firstSeen).isEqualTo(T0);
        assertThat(out.get(1).revisit).isTrue();
        assertThat(out.get(1).lastEmitted).isEqualTo(T0);
        assertThat(out.get(1).firstSeen).isEqualTo(T0 + 2 * HOUR);
        // L1 kept the times (RecentFingerprintCache#keepTimes): the three that were not due were
        // answered there, not from the store.
        assertThat(DedupOperatorTest.accumulator(last, "l1Hits")).isEqualTo(3);
    }

    @Test
    void timesSurviveRestoreAndTheL1CacheDoesNotHideADueUrl() throws Exception {
        List<CanonicalUrl> before = new ArrayList<>();
        for (int p = 0; p < 300; p++) {
            // Enough for filter rebuilds, which must keep the times; whole seconds, which the
            // 64-bit store keeps.
            before.add(at(p, T0 + p * 1000L));
        }
        run(revisiting(), null, before);
        OperatorSubtaskState snap = checkpoint(last, 1);
        List<CanonicalUrl> early = new ArrayList<>();
        List<CanonicalUrl> due = new ArrayList<>();
        for (int p = 0; p < 300; p++) {
            early.add(at(p, T0 + HOUR));
            due.add(at(p, T0 + 3 * HOUR));
        }
        List<CanonicalUrl> both = new ArrayList<>(early);
        both.addAll(due);
        List<FrontierRecord> out = run(revisiting(), snap, both);
        // The early ones are duplicates (and fill L1 with their stored times); the due ones are
        // revisits, each once, with the time of their first emission.
        assertThat(out).hasSize(300).allMatch(r -> r.revisit);
        for (FrontierRecord r : out) {
            assertThat(r.lastEmitted).isEqualTo(T0 + r.source.offset * 1000L);
        }
    }

    @Test
    void aRecordsOwnRevisitAfterOverridesTheJobs() throws Exception {
        // The entries store keeps every URL's time, so the clock runs from the first emission.
        DedupConfig never =
                DedupConfig.builder()
                        .mode(DedupMode.EXACT)
                        .exactStore(ExactStoreType.ENTRIES)
                        .expectedUrlsPerKey(100)
                        .build();
        CanonicalUrl soon = at(1, T0 + 2 * HOUR);
        soon.revisitAfterMillis = HOUR; // this sighting: 1 h is enough
        CanonicalUrl later = at(1, T0 + 2 * HOUR + 30 * 60_000);
        List<FrontierRecord> out = run(never, null, List.of(at(1, T0), soon, later));
        assertThat(out).hasSize(2);
        assertThat(out.get(1).revisit).isTrue();
        assertThat(out.get(1).lastEmitted).isEqualTo(T0);
    }

    private static CanonicalUrl own(CanonicalUrl u, long revisitAfter) {
        u.revisitAfterMillis = revisitAfter;
        return u;
    }

    private static DedupConfig pages() {
        return DedupConfig.builder()
                .mode(DedupMode.EXACT)
                .exactStore(ExactStoreType.PAGES)
                .recentCacheEntries(1024)
                .build();
    }

    /**
     * A key in fingerprint pages keeps the times of the URLs that came with their own revisit_after
     * in the exact store, so such a record is honoured there too; times survive a restore.
     */
    @Test
    void aRecordsOwnRevisitAfterWorksOnAPagesKey() throws Exception {
        List<CanonicalUrl> first =
                List.of(
                        own(at(1, T0), 2 * HOUR), // new: emitted, its time kept
                        own(at(1, T0 + HOUR), 2 * HOUR), // not due
                        at(2, T0)); // a plain record: emitted, no time kept
        List<FrontierRecord> out = run(pages(), null, first);
        assertThat(out).extracting(r -> r.source.offset).containsExactly(1L, 2L);
        assertThat(((DedupOperator) last.getOperator()).cache().filters())
                .allMatch(f -> f.meta.isExactFingerprints());
        OperatorSubtaskState snap = checkpoint(last, 1);

        List<FrontierRecord> later =
                run(
                        pages(),
                        snap,
                        List.of(
                                own(at(1, T0 + 2 * HOUR), 2 * HOUR), // due: a revisit
                                own(at(1, T0 + 3 * HOUR), 2 * HOUR), // just revisited
                                at(1, T0 + 100 * HOUR), // no rule of its own: a duplicate
                                // Seen without a time: its clock starts at this record...
                                own(at(2, T0 + 10 * HOUR), 2 * HOUR),
                                own(at(2, T0 + 11 * HOUR), 2 * HOUR),
                                // ...and it is due 2 h after it, not after its first emission.
                                own(at(2, T0 + 12 * HOUR), 2 * HOUR)));
        assertThat(later).hasSize(2).allMatch(r -> r.revisit);
        assertThat(later.get(0).lastEmitted).isEqualTo(T0);
        assertThat(later.get(0).firstSeen).isEqualTo(T0 + 2 * HOUR);
        assertThat(later.get(1).source.offset).isEqualTo(2);
        assertThat(later.get(1).lastEmitted).isEqualTo(T0 + 10 * HOUR);
    }

    /** {@code forget} takes a pages key's URL out of its page and its time out of the store. */
    @Test
    void forgetOnAPagesKeyDropsTheTimeToo() throws Exception {
        CanonicalUrl forget = at(1, T0 + HOUR);
        forget.op = dev.firstseen.record.Op.FORGET;
        CanonicalUrl force = at(3, T0 + 2 * HOUR);
        force.op = dev.firstseen.record.Op.FORCE;
        List<FrontierRecord> out =
                run(
                        pages(),
                        null,
                        List.of(
                                own(at(1, T0), 2 * HOUR),
                                forget,
                                own(at(1, T0 + 3 * HOUR), 2 * HOUR), // first seen again
                                own(at(1, T0 + 4 * HOUR), 2 * HOUR), // 1 h later: not due
                                own(at(3, T0), 2 * HOUR),
                                force, // emitted, and its time moves to T0 + 2 h
                                own(at(3, T0 + 3 * HOUR), 2 * HOUR))); // 1 h after the force
        assertThat(out).extracting(r -> r.source.offset).containsExactly(1L, 1L, 3L, 3L);
        assertThat(out.get(1).revisit).isFalse();
        assertThat(out.get(1).firstSeen).isEqualTo(T0 + 3 * HOUR);
        assertThat(out.get(3).forced).isTrue();
    }

    @Test
    void withoutTheRuleNothingComesBack() throws Exception {
        DedupConfig never =
                DedupConfig.builder().mode(DedupMode.EXACT).expectedUrlsPerKey(100).build();
        List<FrontierRecord> out = run(never, null, List.of(at(1, T0), at(1, T0 + 1000 * HOUR)));
        assertThat(out).hasSize(1);
    }

    private static CanonicalUrl at(int key, int page, long ts) {
        String c = "http://d" + key + ".com/p/" + page;
        return new CanonicalUrl(
                c, c, "d" + key + ".com", null, new SourcePosition("in", 0, page, ts));
    }

    private static List<CanonicalUrl> all(long ts) {
        List<CanonicalUrl> out = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            for (int p = 0; p < 10; p++) {
                out.add(at(k, p, ts));
            }
        }
        return out;
    }

    /** Revisit (2 h) and expiry (5 h) times survive rescaling 1 -> 2 -> 1. */
    @Test
    void timesSurviveRescaleOneToTwoToOne() throws Exception {
        DedupConfig cfg =
                DedupConfig.builder()
                        .mode(DedupMode.EXACT)
                        .expectedUrlsPerKey(16)
                        .recentCacheEntries(1024)
                        .revisitAfterMillis(2 * HOUR)
                        .forgetAfterMillis(5 * HOUR)
                        .build();
        var one = t.harness(cfg, 1, 0, null);
        one.setProcessingTime(LATER);
        feed(one, all(T0));
        assertThat(one.extractOutputValues()).hasSize(100);
        OperatorSubtaskState snap1 = checkpoint(one, 1);

        var two = t.rescaled(cfg, snap1, 1, 2);
        for (var h : two) {
            h.setProcessingTime(LATER);
        }
        for (CanonicalUrl u : all(T0 + HOUR)) { // not due
            two.get(DedupOperatorTest.subtaskOf(u.key, 2)).processElement(u, 0L);
        }
        for (CanonicalUrl u : all(T0 + 3 * HOUR)) { // due: revisits
            two.get(DedupOperatorTest.subtaskOf(u.key, 2)).processElement(u, 0L);
        }
        List<FrontierRecord> out2 = new ArrayList<>();
        two.forEach(h -> out2.addAll(h.extractOutputValues()));
        assertThat(out2).hasSize(100).allMatch(r -> r.revisit && r.lastEmitted == T0);
        assertThat(two.get(0).extractOutputValues()).isNotEmpty();
        assertThat(two.get(1).extractOutputValues()).isNotEmpty();

        var back = t.rescaled(cfg, DedupOperatorTest.checkpointAll(two, 2), 2, 1).get(0);
        back.setProcessingTime(LATER);
        feed(back, all(T0 + 3 * HOUR + 1)); // just revisited: duplicates
        assertThat(back.extractOutputValues()).isEmpty();
        feed(back, all(T0 + 9 * HOUR)); // 6 h since the revisit: forgotten, so new
        assertThat(back.extractOutputValues()).hasSize(100).noneMatch(r -> r.revisit);
    }
}
