package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fingerprint filter in generations ({@code dedup.forget-after} in approximate mode): each
 * generation is a chain of classes of its own, so the classes' rate shares restart in it; dropping
 * the oldest generations keeps every prefix of the others, from the heap and from stored pages.
 */
class FilterGenerationsTest {
    private static final double P = 1e-3;

    private static List<Fingerprint> insert(KeyFilter f, int n, SplittableRandom rnd)
            throws Exception {
        List<Fingerprint> in = new ArrayList<>();
        while (in.size() < n) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            if (!f.mightContain(fp, PageSource.NOTHING_STORED)) {
                f.insert(fp, PageSource.NOTHING_STORED);
                in.add(fp);
            }
        }
        return in;
    }

    private static KeyFilter generational(long until) {
        FilterMeta m = FilterMeta.createFingerprints(64, P).splitPagesPast(128);
        KeyFilter f = new KeyFilter("k", m, true);
        f.startGenerations(until, P);
        return f;
    }

    @Test
    void aGenerationsClassesRestartTheRateShares() throws Exception {
        KeyFilter f = generational(100);
        SplittableRandom rnd = new SplittableRandom(1);
        insert(f, 1000, rnd); // 64, then 256, then 1024: three classes
        assertThat(f.meta.classCount()).isEqualTo(3);
        f.startGeneration(200);
        insert(f, 100, rnd);
        FilterMeta m = f.meta;
        assertThat(m.classCount()).isEqualTo(5);
        assertThat(m.until(2)).isEqualTo(100);
        assertThat(m.until(3)).isEqualTo(200);
        // Class 3 is the first of its generation: sized as class 0; class 4 as class 1.
        assertThat(m.width(3)).isEqualTo(m.width(0));
        assertThat(m.capacity(3)).isEqualTo(m.capacity(0));
        assertThat(m.width(4)).isEqualTo(m.width(1));
        // Each generation's classes promise at most P: together at most 2P.
        double sum = 0;
        for (int c = 0; c < m.classCount(); c++) {
            sum += Math.scalb((double) m.capacity(c), -m.width(c));
        }
        assertThat(sum).isLessThanOrEqualTo(2 * P);
    }

    @ParameterizedTest(name = "stored: {0}")
    @ValueSource(booleans = {false, true})
    void droppingTheOldestKeepsEveryOtherPrefix(boolean stored) throws Exception {
        KeyFilter f = generational(100);
        SplittableRandom rnd = new SplittableRandom(2);
        List<Fingerprint> old = insert(f, 300, rnd);
        f.startGeneration(200);
        List<Fingerprint> middle = insert(f, 2000, rnd);
        f.startGeneration(300);
        List<Fingerprint> newest = insert(f, 50, rnd);
        int oldClasses = f.meta.expiredClasses(150, 50);
        assertThat(oldClasses).isEqualTo(2); // 64 and 256
        assertThat(f.meta.expiredClasses(99 + 50, 50)).isZero();
        Map<Integer, byte[]> state = new HashMap<>();
        PageSource source = PageSource.NOTHING_STORED;
        if (stored) {
            // As the operator writes a key and a later record loads it from state.
            f.drainDirty((id, page) -> state.put(id, f.stored(id, page)));
            FilterMeta back = f.meta.copy();
            KeyFilter loaded = new KeyFilter("k", back, false);
            source = state::get;
            dropAndCheck(loaded, oldClasses, source, old, middle, newest);
        } else {
            dropAndCheck(f, oldClasses, source, old, middle, newest);
        }
    }

    private static void dropAndCheck(
            KeyFilter f,
            int k,
            PageSource source,
            List<Fingerprint> old,
            List<Fingerprint> middle,
            List<Fingerprint> newest)
            throws Exception {
        int classes = f.meta.classCount();
        long count = f.meta.count();
        f.dropOldest(k, source);
        assertThat(f.meta.classCount()).isEqualTo(classes - k);
        assertThat(f.meta.count()).isEqualTo(count - 300);
        assertThat(f.meta.until(0)).isEqualTo(200);
        assertThat(f.wholeDue()).isTrue();
        assertThat(f.dirtyPages()).isPositive();
        // Nothing is read from state any more: its pages were renumbered.
        PageSource none =
                id -> {
                    throw new AssertionError("page " + id + " read after the drop");
                };
        for (Fingerprint fp : middle) {
            assertThat(f.mightContain(fp, none)).isTrue();
        }
        for (Fingerprint fp : newest) {
            assertThat(f.mightContain(fp, none)).isTrue();
        }
        int still = 0;
        for (Fingerprint fp : old) {
            still += f.mightContain(fp, none) ? 1 : 0;
        }
        assertThat(still).isLessThan(5); // only as false positives, at about 2 P
        assertThat(f.bytes()).isEqualTo(recount(f));
    }

    /** The bytes a filter counts, as a fresh count of its slots gives them. */
    private static long recount(KeyFilter f) {
        byte[][] slots = new byte[f.tableSlots()][];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = f.slotContent(i);
        }
        return KeyFilter.unpacked(
                        f.keyBytes(),
                        f.meta,
                        slots.length == 1 ? slots[0] : slots,
                        f.dirtyBits(),
                        f.loneDirty(),
                        false,
                        false,
                        0,
                        0)
                .bytes();
    }

    @Test
    void aFilterThatCannotAddAClassExtendsItsNewestGeneration() {
        FilterMeta m = FilterMeta.createFingerprints(64, P);
        m.startGenerations(100, P);
        while (m.classCount() < FilterMeta.MAX_CLASSES) {
            m.addEntries(m.classCount() - 1, m.capacity(m.classCount() - 1));
            assertThat(m.startGeneration(100 + m.classCount())).isPositive();
        }
        long older = m.until(m.classCount() - 2);
        assertThat(m.startGeneration(10_000)).isEqualTo(-1);
        // The newest generation (one class here) now ends later; the one before is as it was.
        assertThat(m.until(m.classCount() - 1)).isEqualTo(10_000);
        assertThat(m.until(m.classCount() - 2)).isEqualTo(older);
        assertThat(m.classCount()).isEqualTo(FilterMeta.MAX_CLASSES);
    }

    @Test
    void misuseIsRefused() {
        FilterMeta plain = FilterMeta.createFingerprints(64, P);
        assertThatThrownBy(() -> plain.startGeneration(1))
                .isInstanceOf(IllegalStateException.class);
        FilterMeta m = FilterMeta.createFingerprints(64, P);
        m.startGenerations(1, P);
        assertThatThrownBy(() -> m.dropOldest(1)).hasMessageContaining("cannot drop 1 of 1");
        assertThatThrownBy(() -> m.withUntils(new long[2]))
                .hasMessageContaining("2 generation ends");
        assertThat(plain.expiredClasses(Long.MAX_VALUE, 1)).isZero();
    }
}
