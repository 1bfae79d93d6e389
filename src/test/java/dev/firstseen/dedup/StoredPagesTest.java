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
 * What keyed state gets for a key's pages ({@link KeyFilter#stored}): approximate mode's
 * Rice-coded, fewer bytes than on the heap; exact mode's as on the heap. Either way a filter read
 * back from them finds every URL inserted and answers every other fingerprint as the filter that
 * wrote them, through page splits and (approximate mode) new classes.
 */
class StoredPagesTest {

    @ParameterizedTest
    @ValueSource(strings = {"approximate 1e-2", "approximate 1e-4", "exact"})
    void aFilterReadFromStoredPagesAnswersAsTheOneThatWroteThem(String kind) throws Exception {
        boolean exact = kind.equals("exact");
        FilterMeta start =
                exact
                        ? FilterMeta.createExactFingerprints(128)
                        : FilterMeta.createFingerprints(
                                512, Double.parseDouble(kind.substring(12)));
        Map<Integer, byte[]> stored = new HashMap<>();
        KeyFilter f = new KeyFilter("k", start, true);
        SplittableRandom rnd = new SplittableRandom(44);
        List<Fingerprint> inserted = new ArrayList<>();
        for (int i = 0; i < 6_000; i++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            if (!f.mightContain(fp, stored::get)) {
                f.insert(fp, stored::get);
                inserted.add(fp);
            }
        }
        long heapBytes = f.pageBytes();
        long[] storedBytes = {0};
        int[] rice = {0};
        f.drainDirty(
                (id, page) -> {
                    byte[] b = f.stored(id, page);
                    assertThat(b).isNotSameAs(page);
                    storedBytes[0] += b.length;
                    rice[0] += FingerprintPage.isStoredRice(b) ? 1 : 0;
                    stored.put(id, b);
                });
        assertThat(f.meta.classCount()).isGreaterThan(exact ? 0 : 1); // exact mode: one class
        assertThat(stored).hasSizeGreaterThan(4);
        if (exact) {
            assertThat(rice[0]).isZero();
            assertThat(storedBytes[0]).isEqualTo(heapBytes);
        } else {
            assertThat(rice[0]).isEqualTo(stored.size());
            assertThat(storedBytes[0]).isLessThan(heapBytes);
        }

        KeyFilter read = new KeyFilter("k", f.meta.copy(), false);
        for (Fingerprint fp : inserted) {
            assertThat(read.mightContain(fp, stored::get)).isTrue();
        }
        for (int i = 0; i < 20_000; i++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            assertThat(read.mightContain(fp, stored::get))
                    .isEqualTo(f.mightContain(fp, stored::get));
        }
    }
}
