package dev.firstseen.dedup;

import static dev.firstseen.dedup.DedupOperatorTest.accumulator;
import static dev.firstseen.dedup.DedupOperatorTest.builder;
import static dev.firstseen.dedup.DedupOperatorTest.checkpoint;
import static dev.firstseen.dedup.DedupOperatorTest.emitted;
import static dev.firstseen.dedup.DedupOperatorTest.feed;
import static dev.firstseen.dedup.DedupOperatorTest.subtaskOf;
import static dev.firstseen.dedup.DedupOperatorTest.url;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.record.CanonicalUrl;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 "no stalls": a key whose filter fills is rebuilt from the exact store a bounded number
 * of entries per record ({@code dedup.bloom.rebuild-step}), while its old filter answers. Exact
 * answers must not change: every new URL once, no URL twice, through snapshots taken mid-rebuild,
 * restores and rescaling (RocksDB, as in production).
 */
class SpreadRebuildTest {
    private static final int STEP = 64;

    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    private static DedupConfig spread() {
        return builder(DedupMode.EXACT, 16, 0.01, 64 << 20, 0).rebuildStep(STEP).build();
    }

    private static DedupOperator op(
            org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness<
                            String, CanonicalUrl, ?>
                    h) {
        return (DedupOperator) h.getOperator();
    }

    /** One big key among small ones, each URL twice. */
    private static List<CanonicalUrl> urls(int from, int to) {
        List<CanonicalUrl> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(url(0, i)); // the big key
            if (i % 10 == 0) {
                out.add(url(1 + i % 7, i)); // small keys
            }
        }
        return out;
    }

    @Test
    void aLargeKeysRebuildIsSpreadAndAnswersStayExact() throws Exception {
        var h = t.harness(spread(), 1, 0, null);
        List<CanonicalUrl> in = urls(0, 20_000);
        long mostReadsInOneRecord = 0;
        long readsBefore = 0;
        for (CanonicalUrl u : in) {
            feed(h, List.of(u));
            long reads = accumulator(h, "filterRebuildReads");
            mostReadsInOneRecord = Math.max(mostReadsInOneRecord, reads - readsBefore);
            readsBefore = reads;
        }
        assertThat(emitted(h)).hasSize(in.size()).doesNotHaveDuplicates();
        assertThat(accumulator(h, "filterRebuilds")).isGreaterThan(8);
        // No record paid for more than STEP entries of scans (at once, key 0's last rebuild
        // would read about 10,000 in one record).
        assertThat(mostReadsInOneRecord).isPositive().isLessThanOrEqualTo(STEP);
        assertThat(op(h).pendingRebuilds()).isLessThanOrEqualTo(1);
        // Key 0 reached 20,000 URLs: its rebuilds past STEP URLs were queued, not done at once.
        KeyFilter big = op(h).cache().peek("d0.com");
        assertThat(big.meta.layerCount()).isEqualTo(1);
        assertThat(big.meta.layer(0).capacity).isGreaterThan(20_000);
        feed(h, in);
        assertThat(emitted(h)).hasSize(in.size());
        assertThat(accumulator(h, "duplicates")).isEqualTo(in.size());
    }

    @Test
    void aSnapshotMidRebuildRestoresAndRescales() throws Exception {
        var h = t.harness(spread(), 1, 0, null);
        List<CanonicalUrl> first = urls(0, 5_000);
        feed(h, first);
        // Fill key 0's filter again and stop inside its spread rebuild.
        List<CanonicalUrl> more = new ArrayList<>();
        int i = 5_000;
        while (op(h).pendingRebuilds() == 0 && i < 100_000) {
            CanonicalUrl u = url(0, i++);
            more.add(u);
            feed(h, List.of(u));
        }
        assertThat(op(h).pendingRebuilds()).isEqualTo(1);
        OperatorSubtaskState snap = checkpoint(h, 1);
        List<CanonicalUrl> seen = new ArrayList<>(first);
        seen.addAll(more);

        var restored = t.harness(spread(), 1, 0, snap);
        feed(restored, seen);
        assertThat(emitted(restored)).isEmpty();
        List<CanonicalUrl> later = urls(i, i + 3_000);
        feed(restored, later);
        assertThat(emitted(restored)).hasSize(later.size());
        seen.addAll(later);
        OperatorSubtaskState again = checkpoint(restored, 2);

        long reEmitted = 0;
        for (int sub = 0; sub < 2; sub++) {
            var scaled = t.harness(spread(), 2, sub, again);
            List<CanonicalUrl> mine = new ArrayList<>();
            for (CanonicalUrl u : seen) {
                if (subtaskOf(u.key, 2) == sub) {
                    mine.add(u);
                }
            }
            feed(scaled, mine);
            reEmitted += emitted(scaled).size();
        }
        assertThat(reEmitted).isZero();
    }

    /** With every rebuild at once, the same input gives the same output: only the timing moved. */
    @Test
    void spreadAndImmediateRebuildsAgree() throws Exception {
        List<CanonicalUrl> in = DedupOperatorTest.stream(30_000, 5, 8_000, 11);
        var spread = t.harness(spread(), 1, 0, null);
        var atOnce =
                t.harness(
                        builder(DedupMode.EXACT, 16, 0.01, 64 << 20, 0)
                                .rebuildStep(Long.MAX_VALUE)
                                .build(),
                        1,
                        0,
                        null);
        feed(spread, in);
        feed(atOnce, in);
        assertThat(emitted(spread)).isEqualTo(emitted(atOnce)).doesNotHaveDuplicates();
        assertThat(accumulator(spread, "filterRebuilds")).isPositive();
    }
}
