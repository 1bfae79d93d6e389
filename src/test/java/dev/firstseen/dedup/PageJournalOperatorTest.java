package dev.firstseen.dedup;

import static dev.firstseen.dedup.DedupOperatorTest.accumulator;
import static dev.firstseen.dedup.DedupOperatorTest.builder;
import static dev.firstseen.dedup.DedupOperatorTest.checkpoint;
import static dev.firstseen.dedup.DedupOperatorTest.checkpointAll;
import static dev.firstseen.dedup.DedupOperatorTest.emitted;
import static dev.firstseen.dedup.DedupOperatorTest.feed;
import static dev.firstseen.dedup.DedupOperatorTest.subtaskOf;
import static dev.firstseen.dedup.DedupOperatorTest.url;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.metrics.FirstSeenMetrics;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.Op;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The page journal on RocksDB: a checkpoint appends a key's new fingerprints to its journal instead
 * of writing its changed pages whole, and a key read from state inserts them again. Whatever a
 * restore, a rescale, an eviction or a removal meets, the job must answer as if every page had been
 * written whole: exact mode emits exactly the first sightings, approximate mode re-emits nothing.
 */
class PageJournalOperatorTest {
    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    /**
     * A restore from {@code snap} emits none of {@code seen} again, then the first sightings of
     * {@code fresh} (new pages, which none of these tests' fixed fingerprints drops).
     */
    private void restoreKnows(
            DedupConfig cfg,
            OperatorSubtaskState snap,
            List<CanonicalUrl> seen,
            List<CanonicalUrl> fresh)
            throws Exception {
        var restored = t.harness(cfg, 1, 0, snap);
        feed(restored, seen);
        assertThat(emitted(restored)).isEmpty();
        feed(restored, fresh);
        assertThat(emitted(restored)).containsExactlyElementsOf(firstSightings(fresh));
    }

    private static DedupConfig exactPages(long cacheBytes, double share) {
        return builder(DedupMode.EXACT, 50, 0.01, cacheBytes, 0)
                .exactStore(ExactStoreType.PAGES)
                .pageJournalShare(share)
                .build();
    }

    private static DedupConfig approximate(double share) {
        return builder(DedupMode.APPROXIMATE, 64, 1e-4, 64 << 20, 0)
                .pageJournalShare(share)
                .build();
    }

    /** {@code n} URLs over {@code keys} keys, pages drawn from [from, from + span). */
    private static List<CanonicalUrl> urls(int n, int keys, int from, int span, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<CanonicalUrl> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(url(rnd.nextInt(keys), from + rnd.nextInt(span)));
        }
        return out;
    }

    /**
     * Round {@code round} of a key set that grows a little at a time: {@code firstN} URLs over
     * pages [0, firstSpan) first, then {@code n} URLs over the next {@code step} new pages.
     */
    private static List<CanonicalUrl> growth(
            int round, int keys, int firstN, int firstSpan, int n, int step, long seed) {
        return round == 0
                ? urls(firstN, keys, 0, firstSpan, seed)
                : urls(n, keys, firstSpan + round * step, step, seed + round);
    }

    private static List<String> firstSightings(List<CanonicalUrl> in) {
        Set<String> s = new LinkedHashSet<>();
        in.forEach(u -> s.add(u.canonical));
        return new ArrayList<>(s);
    }

    @SafeVarargs
    private static List<CanonicalUrl> concat(List<CanonicalUrl>... parts) {
        List<CanonicalUrl> all = new ArrayList<>();
        for (List<CanonicalUrl> p : parts) {
            all.addAll(p);
        }
        return all;
    }

    /**
     * Feeds {@code first}, checkpoints (new keys: written whole), feeds {@code then} and returns
     * the second checkpoint, which journals what {@code then} added where it is small enough.
     */
    private static OperatorSubtaskState firstThen(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h,
            List<CanonicalUrl> first,
            List<CanonicalUrl> then)
            throws Exception {
        feed(h, first);
        checkpoint(h, 1);
        feed(h, then);
        return checkpoint(h, 2);
    }

    /** The metadata keyed state holds for {@code key}; leaves it the backend's current key. */
    private static FilterMeta storedMeta(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h,
            String key)
            throws Exception {
        var backend = ((DedupOperator) h.getOperator()).getKeyedStateBackend();
        backend.setCurrentKey(key);
        return backend.getPartitionedState(
                        VoidNamespace.INSTANCE,
                        VoidNamespaceSerializer.INSTANCE,
                        DedupState.bloomMeta())
                .value();
    }

    /** What {@code later} must emit after {@code before} was seen: its new first sightings. */
    private static List<String> newIn(List<CanonicalUrl> later, List<CanonicalUrl> before) {
        List<String> expected = firstSightings(later);
        expected.removeAll(firstSightings(before));
        return expected;
    }

    @Test
    void smallGrowthIsJournaledAndARestoreAnswersExactly() throws Exception {
        DedupConfig cfg = exactPages(64 << 20, 1.0);
        List<CanonicalUrl> a = urls(40_000, 20, 0, 3000, 1); // about 2,000 URLs per key
        List<CanonicalUrl> b = urls(4000, 20, 3000, 3000, 2); // about 10% more per key
        List<CanonicalUrl> c = urls(4000, 20, 6000, 3000, 3);
        var h = t.harness(cfg, 1, 0, null);
        feed(h, a);
        checkpoint(h, 1); // new keys: written whole
        long pagesAfterFirst = accumulator(h, FirstSeenMetrics.PAGES_FLUSHED);
        assertThat(pagesAfterFirst).isGreaterThan(0);
        assertThat(accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES)).isZero();
        feed(h, b);
        checkpoint(h, 2);
        feed(h, c);
        OperatorSubtaskState snap = checkpoint(h, 3);
        // Every key grew by about a fifth, a journal of about a fifth of its pages' bytes (about
        // 57 bits a fingerprint against 56 in a page), under the least bound a share of 1 draws
        // (a quarter): journals, no page written whole.
        assertThat(accumulator(h, FirstSeenMetrics.PAGES_FLUSHED)).isEqualTo(pagesAfterFirst);
        assertThat(accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES))
                .isEqualTo(firstSightings(b).size() + firstSightings(c).size());
        assertThat(emitted(h)).containsExactlyElementsOf(firstSightings(concat(a, b, c)));

        var restored = t.harness(cfg, 1, 0, snap);
        List<CanonicalUrl> d = urls(4000, 20, 0, 12_000, 4); // old and new URLs mixed
        feed(restored, concat(a, b, c, d));
        assertThat(accumulator(restored, FirstSeenMetrics.PAGE_JOURNAL_REPLAYED))
                .isEqualTo(firstSightings(b).size() + firstSightings(c).size());
        assertThat(emitted(restored)).containsExactlyElementsOf(newIn(d, concat(a, b, c)));

        // The same stream with pages written whole at every checkpoint answers the same.
        var whole = t.harness(exactPages(64 << 20, 0), 1, 0, null);
        feed(whole, a);
        checkpoint(whole, 1);
        feed(whole, b);
        checkpoint(whole, 2);
        feed(whole, c);
        var wholeRestored = t.harness(exactPages(64 << 20, 0), 1, 0, checkpoint(whole, 3));
        feed(wholeRestored, concat(a, b, c, d));
        assertThat(accumulator(whole, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES)).isZero();
        assertThat(emitted(wholeRestored)).containsExactlyElementsOf(emitted(restored));
    }

    /**
     * A journal that grows past its share of the key writes the pages whole and starts again; a
     * restore in the middle of either finds every URL.
     */
    @Test
    void aJournalPastItsShareWritesThePagesWhole() throws Exception {
        DedupConfig cfg = exactPages(64 << 20, 0.1);
        var h = t.harness(cfg, 1, 0, null);
        List<CanonicalUrl> all = new ArrayList<>();
        long journaledBefore = 0;
        boolean sawWholeAfterJournal = false;
        for (int round = 0; round < 12; round++) {
            // A large start, then about 2.5% more per key and round: several rounds fit in a
            // journal of a tenth of the key, then its pages are written whole.
            List<CanonicalUrl> part = growth(round, 4, 20_000, 5000, 400, 200, 10);
            feed(h, part);
            all.addAll(part);
            long pagesBefore = accumulator(h, FirstSeenMetrics.PAGES_FLUSHED);
            checkpoint(h, round + 1);
            long journaled = accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES);
            if (round > 0
                    && journaledBefore > 0
                    && accumulator(h, FirstSeenMetrics.PAGES_FLUSHED) > pagesBefore) {
                sawWholeAfterJournal = true;
            }
            journaledBefore = journaled;
        }
        assertThat(journaledBefore).isGreaterThan(0);
        assertThat(sawWholeAfterJournal).isTrue();
        restoreKnows(cfg, checkpoint(h, 100), all, urls(500, 4, 10_000, 1000, 99));
    }

    /**
     * Keyed state gets new fingerprints between checkpoints too: a key held as an object appends a
     * journal element for every {@link FilterCache#JOURNAL_BATCH} of them. Packed keys that pass
     * {@link FilterCache#MAX_HELD} held URLs are packed again with them pending, and written at the
     * checkpoint. A restore from the next checkpoint finds them all; one from the checkpoint before
     * finds none of them, as the records that brought them come again.
     */
    @Test
    void fingerprintsWrittenBetweenCheckpointsSurviveARestore() throws Exception {
        DedupConfig cfg = exactPages(64 << 20, 1.0);
        var h = t.harness(cfg, 1, 0, null);
        DedupOperator op = (DedupOperator) h.getOperator();
        // Key 0 grows too large to pack; keys 1 to 8 are packed at the first checkpoint.
        List<CanonicalUrl> first = new ArrayList<>();
        for (int p = 0; p < 20_000; p++) {
            first.add(url(0, p));
        }
        for (int k = 1; k <= 8; k++) {
            for (int p = 0; p < 150; p++) {
                first.add(url(k, p));
            }
        }
        feed(h, first);
        checkpoint(h, 1);
        assertThat(op.cache().packedKeys()).as("hot in the first interval: objects").isZero();
        OperatorSubtaskState before = checkpoint(h, 2); // after a quiet interval
        assertThat(op.cache().packedKeys()).as("small keys packed").isEqualTo(8);
        List<CanonicalUrl> then = new ArrayList<>();
        for (int p = 20_000; p < 20_000 + 3 * FilterCache.JOURNAL_BATCH; p++) {
            then.add(url(0, p));
        }
        // Keys 1 to 4 pass 64 held URLs once: packed again as due; keys 5 to 8 twice: unpacked.
        for (int k = 1; k <= 8; k++) {
            int more = k <= 4 ? FilterCache.MAX_HELD + 10 : 2 * FilterCache.MAX_HELD + 10;
            for (int p = 150; p < 150 + more; p++) {
                then.add(url(k, p));
            }
        }
        feed(h, then);
        assertThat(op.cache().earlyJournals()).as("batches of key 0").isEqualTo(3);
        assertThat(op.cache().duePacks()).as("packed again as due").isEqualTo(8);
        assertThat(op.cache().packedKeys()).as("still packed").isEqualTo(4);
        assertThat(op.cache().unpacks()).as("due keys unpacked").isEqualTo(4);
        assertThat(accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES))
                .as("journaled before the second checkpoint")
                .isGreaterThanOrEqualTo(3L * FilterCache.JOURNAL_BATCH);
        OperatorSubtaskState after = checkpoint(h, 3);
        assertThat(emitted(h)).containsExactlyElementsOf(firstSightings(concat(first, then)));

        var restored = t.harness(cfg, 1, 0, after);
        feed(restored, concat(first, then));
        assertThat(emitted(restored)).isEmpty();
        assertThat(accumulator(restored, FirstSeenMetrics.PAGE_JOURNAL_REPLAYED))
                .isGreaterThanOrEqualTo(3L * FilterCache.JOURNAL_BATCH);
        List<CanonicalUrl> fresh = urls(2000, 9, 30_000, 1000, 31);
        feed(restored, fresh);
        assertThat(emitted(restored)).containsExactlyElementsOf(firstSightings(fresh));

        var rolledBack = t.harness(cfg, 1, 0, before);
        feed(rolledBack, concat(first, then));
        assertThat(emitted(rolledBack)).containsExactlyElementsOf(firstSightings(then));
    }

    /** A removal cannot be journaled: the key's pages are written whole, its journal cleared. */
    @Test
    void aForgottenUrlStaysForgottenAcrossARestore() throws Exception {
        DedupConfig cfg = exactPages(64 << 20, 0.25);
        List<CanonicalUrl> a = urls(8000, 2, 0, 4000, 5);
        var h = t.harness(cfg, 1, 0, null);
        firstThen(h, a, List.of(url(1, 5000), url(1, 5001), url(0, 5002))); // journaled
        assertThat(accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES)).isEqualTo(3);
        CanonicalUrl forget = url(1, 5000);
        forget.op = Op.FORGET;
        feed(h, List.of(forget, url(1, 5003)));
        var restored = t.harness(cfg, 1, 0, checkpoint(h, 3));
        feed(restored, concat(a, List.of(url(1, 5001), url(0, 5002), url(1, 5003))));
        assertThat(emitted(restored)).isEmpty();
        feed(restored, List.of(url(1, 5000)));
        assertThat(emitted(restored)).containsExactly(url(1, 5000).canonical);
    }

    /** A 64 KiB cache: journaled keys are evicted (written whole) and read back all the time. */
    @Test
    void evictionBetweenCheckpointsLosesNothing() throws Exception {
        DedupConfig tiny = exactPages(64 << 10, 0.25);
        var h = t.harness(tiny, 1, 0, null);
        List<CanonicalUrl> all = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            List<CanonicalUrl> part = growth(round, 100, 20_000, 400, 2000, 100, 20);
            feed(h, part);
            all.addAll(part);
            checkpoint(h, round + 1);
        }
        assertThat(accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES)).isGreaterThan(0);
        assertThat(emitted(h)).containsExactlyElementsOf(firstSightings(all));
        var restored = t.harness(tiny, 1, 0, checkpoint(h, 10));
        List<CanonicalUrl> more = urls(6000, 100, 0, 4000, 30);
        feed(restored, concat(all, more));
        assertThat(emitted(restored)).containsExactlyElementsOf(newIn(more, all));
    }

    /** Journals move with their keys: 1 → 2 → 1 subtasks, each step from journaled state. */
    @Test
    void rescaleFromJournaledStateReEmitsNothing() throws Exception {
        DedupConfig cfg = exactPages(64 << 20, 0.25);
        List<CanonicalUrl> a = urls(20_000, 30, 0, 2000, 40);
        List<CanonicalUrl> b = urls(3000, 30, 2000, 2000, 41);
        List<CanonicalUrl> c = urls(3000, 30, 4000, 2000, 42);
        var one = t.harness(cfg, 1, 0, null);
        OperatorSubtaskState snap = firstThen(one, a, b);
        assertThat(accumulator(one, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES)).isGreaterThan(0);

        List<KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>> two =
                t.rescaled(cfg, snap, 1, 2);
        for (CanonicalUrl u : concat(a, b, c)) {
            two.get(subtaskOf(u.key, 2)).processElement(u, 0L);
        }
        List<String> out2 = new ArrayList<>();
        two.forEach(h -> out2.addAll(emitted(h)));
        assertThat(out2).containsExactlyInAnyOrderElementsOf(newIn(c, concat(a, b)));

        var back = t.rescaled(cfg, checkpointAll(two, 3), 2, 1).get(0);
        feed(back, concat(a, b, c));
        assertThat(emitted(back)).isEmpty();
    }

    /**
     * A whole write with journals on stores the metadata flagged as journaled, so that the first
     * element after it rewrites no metadata (a rewrite after the compaction that follows a whole
     * write after a checkpoint would leave the next checkpoint both versions). A key so flagged
     * whose journal is still empty restores as it was; with journals off the flag stays clear.
     */
    @Test
    void aWholeWriteFlagsTheMetadataForTheJournalToCome() throws Exception {
        List<CanonicalUrl> a = urls(3000, 3, 0, 4000, 60);
        for (double share : new double[] {0.25, 0}) {
            DedupConfig cfg = approximate(share);
            var h = t.harness(cfg, 1, 0, null);
            feed(h, a);
            OperatorSubtaskState whole = checkpoint(h, 1); // every key new: written whole
            var backend = ((DedupOperator) h.getOperator()).getKeyedStateBackend();
            for (int k = 0; k < 3; k++) {
                FilterMeta stored = storedMeta(h, "d" + k + ".com");
                Iterable<byte[]> journal =
                        backend.getPartitionedState(
                                        VoidNamespace.INSTANCE,
                                        VoidNamespaceSerializer.INSTANCE,
                                        DedupState.pageJournal())
                                .get();
                assertThat(stored.journal).as("share %s, key %d", share, k).isEqualTo(share > 0);
                assertThat(journal == null ? List.of() : journal).isEmpty();
            }
            restoreKnows(cfg, whole, a, urls(300, 3, 4000, 3000, 61));
        }
    }

    /**
     * With the compaction after checkpoints, a batch between checkpoints that passes the journal's
     * bound is journaled all the same, not written whole: written now, its superseded pages would
     * be in the next checkpoint. The next checkpoint's flush has the key written whole after it,
     * and a restore from that checkpoint finds every URL.
     */
    @Test
    void aBatchPastTheBoundIsJournaledAndWrittenWholeAfterTheNextCheckpoint() throws Exception {
        DedupConfig cfg =
                builder(DedupMode.APPROXIMATE, 64, 1e-4, 64 << 20, 0)
                        .pageJournalShare(0.25)
                        .compactAfterCheckpoint(true)
                        .build();
        var h = t.harness(cfg, 1, 0, null);
        DedupOperator op = (DedupOperator) h.getOperator();
        List<CanonicalUrl> first = new ArrayList<>();
        for (int p = 0; p < 20_000; p++) {
            first.add(url(0, p)); // too large to pack: batches between checkpoints
        }
        feed(h, first);
        checkpoint(h, 1);
        h.notifyOfCompletedCheckpoint(1);
        op.awaitCompaction();
        long pagesBefore = accumulator(h, FirstSeenMetrics.PAGES_FLUSHED);
        List<CanonicalUrl> then = new ArrayList<>();
        // About 25 KB of journal against a bound of at most a quarter of some 60 KB of pages.
        for (int p = 20_000; p < 20_000 + 40 * FilterCache.JOURNAL_BATCH; p++) {
            then.add(url(0, p));
        }
        feed(h, then);
        assertThat(op.cache().earlyJournals()).as("batches").isEqualTo(40);
        assertThat(accumulator(h, FirstSeenMetrics.PAGES_FLUSHED))
                .as("pages written between checkpoints")
                .isEqualTo(pagesBefore);
        OperatorSubtaskState second = checkpoint(h, 2);
        long keysBefore = op.keysWrittenAfterCheckpoint();
        h.notifyOfCompletedCheckpoint(2);
        assertThat(op.keysWrittenAfterCheckpoint() - keysBefore)
                .as("written whole after the checkpoint")
                .isEqualTo(1);
        assertThat(accumulator(h, FirstSeenMetrics.PAGES_FLUSHED)).isGreaterThan(pagesBefore);
        // Approximate mode at 1e-4 drops a few of the 30,200 new URLs, and emits none twice.
        assertThat(emitted(h)).doesNotHaveDuplicates().hasSizeGreaterThan(30_200 - 20);

        var restored = t.harness(cfg, 1, 0, second);
        feed(restored, concat(first, then));
        assertThat(emitted(restored)).isEmpty();
        assertThat(accumulator(restored, FirstSeenMetrics.PAGE_JOURNAL_REPLAYED))
                .isGreaterThanOrEqualTo(40L * FilterCache.JOURNAL_BATCH);
    }

    /** Approximate mode's classes grow while journaled; a restore re-emits nothing. */
    @Test
    void approximateModeJournalsToo() throws Exception {
        // A journal entry (21 to 27 bits here: 1e-4, 64 URLs a class at first) is about 1.5 page
        // entries: a little growth per key.
        DedupConfig cfg = approximate(0.5);
        List<CanonicalUrl> a = urls(30_000, 10, 0, 4000, 50);
        List<CanonicalUrl> b = urls(800, 10, 4000, 3000, 51);
        var h = t.harness(cfg, 1, 0, null);
        var restored = t.harness(cfg, 1, 0, firstThen(h, a, b));
        assertThat(accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES)).isGreaterThan(0);
        feed(restored, concat(a, b));
        assertThat(emitted(restored)).isEmpty();
        assertThat(accumulator(restored, FirstSeenMetrics.PAGE_JOURNAL_REPLAYED)).isGreaterThan(0);
    }

    /**
     * The heap state backend keeps the objects it is handed (metadata, list elements) rather than
     * their bytes: the journal must work there too, through a snapshot and a restore.
     */
    @Test
    void theHeapBackendJournalsToo() throws Exception {
        DedupConfig cfg = exactPages(64 << 20, 0.5);
        List<CanonicalUrl> a = urls(8000, 5, 0, 3000, 70);
        List<CanonicalUrl> b = urls(1000, 5, 3000, 1000, 71);
        var h = heapHarness(cfg, null);
        OperatorSubtaskState snap = firstThen(h, a, b);
        assertThat(accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES)).isGreaterThan(0);
        var restored = heapHarness(cfg, snap);
        List<CanonicalUrl> c = urls(2000, 5, 0, 6000, 72);
        feed(restored, concat(a, b, c));
        assertThat(accumulator(restored, FirstSeenMetrics.PAGE_JOURNAL_REPLAYED)).isGreaterThan(0);
        assertThat(emitted(restored)).containsExactlyElementsOf(newIn(c, concat(a, b)));
    }

    private KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>
            heapHarness(DedupConfig cfg, OperatorSubtaskState restore) throws Exception {
        return t.harness(cfg, 1, 0, restore, Map.of(), new HashMapStateBackend());
    }

    /**
     * Metadata written whole with journals off carries no journal flag. Restored into a job that
     * journals, each key's first element reads its metadata and sets the flag; a whole write from
     * here sets it, and later elements, through the packing of keys at the checkpoint between, know
     * it set and read nothing. If any element went to a journal whose metadata lacked the flag, a
     * restore would not replay it and would emit its URLs again.
     */
    @Test
    void turningJournalsOnFlagsMetadataWrittenWithout() throws Exception {
        List<CanonicalUrl> a = urls(8000, 5, 0, 3000, 80);
        List<CanonicalUrl> b = urls(500, 5, 3000, 1000, 81);
        List<CanonicalUrl> c = urls(500, 5, 4000, 1000, 82);
        var off = t.harness(exactPages(64 << 20, 0), 1, 0, null);
        feed(off, a);
        OperatorSubtaskState whole = checkpoint(off, 1);

        DedupConfig on = exactPages(64 << 20, 1.0);
        var h = t.harness(on, 1, 0, whole);
        feed(h, b);
        checkpoint(h, 2);
        feed(h, c);
        OperatorSubtaskState last = checkpoint(h, 3);
        assertThat(accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES))
                .isEqualTo(firstSightings(b).size() + firstSightings(c).size());
        for (int k = 0; k < 5; k++) {
            assertThat(storedMeta(h, "d" + k + ".com").journal).as("key %d", k).isTrue();
        }
        restoreKnows(on, last, concat(a, b, c), urls(500, 5, 5000, 1000, 83));
    }

    /** Share 0: no journal is written, and one restored from a job that wrote it is replayed. */
    @Test
    void turningJournalsOffReadsTheOldOnes() throws Exception {
        List<CanonicalUrl> a = urls(8000, 5, 0, 3000, 60);
        List<CanonicalUrl> b = urls(1000, 5, 3000, 1000, 61);
        var on = t.harness(exactPages(64 << 20, 0.25), 1, 0, null);
        OperatorSubtaskState snap = firstThen(on, a, b);
        assertThat(accumulator(on, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES)).isGreaterThan(0);

        DedupConfig off = exactPages(64 << 20, 0);
        var h = t.harness(off, 1, 0, snap);
        feed(h, concat(a, b));
        assertThat(emitted(h)).isEmpty();
        List<CanonicalUrl> c = urls(1000, 5, 4000, 1000, 62);
        feed(h, c);
        var again = t.harness(off, 1, 0, checkpoint(h, 3));
        assertThat(accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES)).isZero();
        feed(again, concat(a, b, c));
        assertThat(emitted(again)).isEmpty();
        assertThat(accumulator(again, FirstSeenMetrics.PAGE_JOURNAL_REPLAYED)).isZero();
    }
}
