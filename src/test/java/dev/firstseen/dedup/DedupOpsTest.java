package dev.firstseen.dedup;

import static dev.firstseen.dedup.DedupOperatorTest.checkpoint;
import static dev.firstseen.dedup.DedupOperatorTest.emitted;
import static dev.firstseen.dedup.DedupOperatorTest.exact;
import static dev.firstseen.dedup.DedupOperatorTest.feed;
import static dev.firstseen.dedup.DedupOperatorTest.url;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.Op;
import dev.firstseen.record.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The seen-set ops (issue 15) on the operator harness with RocksDB. */
class DedupOpsTest {
    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    private static CanonicalUrl op(Op op, int key, int page) {
        CanonicalUrl u = url(key, page);
        u.op = op;
        return u;
    }

    private static CanonicalUrl forgetKey(int key) {
        CanonicalUrl u =
                new CanonicalUrl(
                        null, null, "d" + key + ".com", null, new SourcePosition("in", 0, 0, -1));
        u.op = Op.FORGET_KEY;
        return u;
    }

    private static List<CanonicalUrl> pagesOf(int key, int n) {
        List<CanonicalUrl> out = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            out.add(url(key, p));
        }
        return out;
    }

    @Test
    void forceEmitsWhateverTheStateSaysAndSaysSo() throws Exception {
        var h = t.harness(exact(), 1, 0, null);
        feed(h, List.of(url(1, 1), op(Op.FORCE, 1, 1), url(1, 1), op(Op.FORCE, 1, 2), url(1, 2)));
        List<FrontierRecord> out = h.extractOutputValues();
        assertThat(emitted(h))
                .containsExactly("http://d1.com/p/1", "http://d1.com/p/1", "http://d1.com/p/2");
        assertThat(out.get(0).forced).isFalse();
        assertThat(out.get(1).forced).isTrue();
        assertThat(out.get(2).forced).isTrue(); // forced and new: seen from now on
    }

    @Test
    void markSeenRecordsWithoutEmitting() throws Exception {
        for (DedupMode mode : DedupMode.values()) {
            var h =
                    t.harness(
                            DedupOperatorTest.config(mode, 100, 0.01, 64 << 20, 1024), 1, 0, null);
            List<CanonicalUrl> imported = new ArrayList<>();
            for (int p = 0; p < 500; p++) {
                imported.add(op(Op.MARK_SEEN, 2, p));
            }
            feed(h, imported);
            assertThat(emitted(h)).as(mode.name()).isEmpty();
            feed(h, pagesOf(2, 500));
            assertThat(emitted(h)).as(mode.name()).isEmpty();
            feed(h, List.of(url(2, 500)));
            assertThat(emitted(h)).containsExactly("http://d2.com/p/500");
        }
    }

    @Test
    void forgetMakesAUrlNewAgainAndSurvivesRestore() throws Exception {
        var h = t.harness(exact(), 1, 0, null);
        feed(h, pagesOf(3, 50));
        assertThat(emitted(h)).hasSize(50);
        // Forgotten right after it was seen: L1 holds it, and must let go of it too.
        feed(h, List.of(op(Op.FORGET, 3, 7), url(3, 7), url(3, 8)));
        assertThat(emitted(h)).hasSize(51).endsWith("http://d3.com/p/7");
        feed(h, List.of(op(Op.FORGET, 3, 9)));
        OperatorSubtaskState snap = checkpoint(h, 1);
        var restored = t.harness(exact(), 1, 0, snap);
        feed(restored, pagesOf(3, 50));
        assertThat(emitted(restored)).containsExactly("http://d3.com/p/9");
    }

    @Test
    void forgetKeyForgetsEveryUrlOfThatKeyAndNoOther() throws Exception {
        var h = t.harness(exact(), 1, 0, null);
        feed(h, pagesOf(4, 300)); // enough to rebuild the filter once or twice
        feed(h, pagesOf(5, 30));
        feed(h, List.of(forgetKey(4)));
        feed(h, pagesOf(4, 300));
        feed(h, pagesOf(5, 30));
        assertThat(emitted(h)).hasSize(300 + 30 + 300);
        // After a checkpoint and restore, key 4 holds only what came after the forget.
        OperatorSubtaskState snap = checkpoint(h, 1);
        var restored = t.harness(exact(), 1, 0, snap);
        feed(restored, pagesOf(4, 301));
        feed(restored, pagesOf(5, 30));
        assertThat(emitted(restored)).containsExactly("http://d4.com/p/300");
    }

    @Test
    void opsAreCounted() throws Exception {
        KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h =
                t.harness(exact(), 1, 0, null);
        feed(
                h,
                List.of(
                        op(Op.FORCE, 6, 1),
                        op(Op.MARK_SEEN, 6, 2),
                        op(Op.FORGET, 6, 1),
                        forgetKey(6)));
        assertThat(DedupOperatorTest.accumulator(h, "opsForced")).isEqualTo(1);
        assertThat(DedupOperatorTest.accumulator(h, "opsMarkedSeen")).isEqualTo(1);
        assertThat(DedupOperatorTest.accumulator(h, "opsForgotten")).isEqualTo(1);
        assertThat(DedupOperatorTest.accumulator(h, "opsKeysForgotten")).isEqualTo(1);
    }
}
