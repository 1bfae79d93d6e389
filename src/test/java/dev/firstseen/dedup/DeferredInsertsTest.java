package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A filter that puts off the appends of up to {@link KeyFilter#MAX_DEFERRED} inserts to its pages'
 * tails answers, counts bytes and ends up with pages exactly as one that applies every insert at
 * once: through new classes, page splits, merges of full tails, journal batches, a whole write due
 * while some are put off, and whole writes.
 */
class DeferredInsertsTest {

    @ParameterizedTest
    @ValueSource(strings = {"approximate 1e-2", "approximate 1e-4", "exact"})
    void deferredInsertsMatchInsertsAppliedAtOnce(String kind) throws Exception {
        FilterMeta start =
                kind.equals("exact")
                        ? FilterMeta.createExactFingerprints(128)
                        : FilterMeta.createFingerprints(
                                128, Double.parseDouble(kind.substring(12)));
        Map<Integer, byte[]> stored = new HashMap<>();
        KeyFilter deferring = new KeyFilter("k", start.copy(), true);
        KeyFilter eager = new KeyFilter("k", start.copy(), true);
        SplittableRandom rnd = new SplittableRandom(36);
        List<Fingerprint> inserted = new ArrayList<>();
        // A new key writes whole at its first write and puts nothing off until then.
        for (int i = 0; i < 200; i++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            deferring.insert(fp, stored::get);
            eager.insert(fp, stored::get);
            inserted.add(fp);
        }
        deferring.drainDirty((id, page) -> stored.put(id, page.clone()));
        eager.drainDirty((id, page) -> {});
        deferring.wroteWhole(true);
        eager.wroteWhole(true);
        int classes = deferring.meta.classCount();
        int pages = deferring.meta.pages(classes - 1);
        for (int i = 0; i < 20_000; i++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            assertThat(deferring.mightContain(fp, stored::get))
                    .as("insert %d", i)
                    .isEqualTo(eager.mightContain(fp, stored::get));
            deferring.insert(fp, stored::get);
            eager.insert(fp, stored::get);
            eager.pageBytes(); // applies what it put off: one insert at a time
            inserted.add(fp);
            assertThat(deferring.bytes()).as("bytes after insert %d", i).isEqualTo(eager.bytes());
            Fingerprint earlier = inserted.get(rnd.nextInt(inserted.size()));
            assertThat(deferring.mightContain(earlier, stored::get)).isTrue();
            if (i % 1000 == 999 && deferring.pendingCount() > 0) { // a checkpoint's batch
                assertThat(deferring.takePending(100)).isEqualTo(eager.takePending(100));
            }
            if (i == 10_500) { // a whole write due while inserts are put off: none is from now on
                deferring.writeWholeSoon();
                eager.writeWholeSoon();
            } else if (i == 12_500) { // which the next checkpoint makes
                deferring.drainDirty((id, page) -> stored.put(id, page.clone()));
                eager.drainDirty((id, page) -> {});
                deferring.wroteWhole(true);
                eager.wroteWhole(true);
            }
        }
        // The run went through splits, and approximate mode's through new classes (exact mode's
        // one class grows by splits alone).
        if (!kind.equals("exact")) {
            assertThat(deferring.meta.classCount()).isGreaterThan(classes);
        }
        assertThat(deferring.meta.pages(deferring.meta.classCount() - 1)).isGreaterThan(pages);
        for (Fingerprint fp : inserted) {
            assertThat(deferring.mightContain(fp, stored::get)).isTrue();
        }
        assertThat(deferring.tableSlots()).isEqualTo(eager.tableSlots());
        for (int s = 0; s < deferring.tableSlots(); s++) {
            assertThat(deferring.slotContent(s)).as("slot %d", s).isEqualTo(eager.slotContent(s));
        }
        assertThat(deferring.dirtyBits()).isEqualTo(eager.dirtyBits());
        for (int c = 0; c < deferring.meta.classCount(); c++) {
            assertThat(deferring.meta.entries(c)).isEqualTo(eager.meta.entries(c));
        }
        assertThat(deferring.bytes()).isEqualTo(eager.bytes());
    }
}
