package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link FilterMeta}'s heap layout (class 0 in fields, the others in an array; the sizing shared
 * between keys) must not change what a key's metadata says or let keys change each other's.
 */
class FilterMetaTest {
    /** A filter at 1e-4 grown to {@code classes} classes, each with some entries and splits. */
    private static FilterMeta grown(int classes) {
        FilterMeta m = FilterMeta.createFingerprints(128, 1e-4);
        for (int c = 1; c < classes; c++) {
            assertThat(m.growClass()).isEqualTo(c);
        }
        for (int c = 0; c < classes; c++) {
            m.addEntries(c, 100L * (c + 1));
            for (int s = 0; s <= c; s++) {
                m.advanceSplit(c);
            }
        }
        return m;
    }

    @Test
    void everyClassReadsBackWhatWasBuilt() {
        for (int n = 1; n <= 4; n++) {
            FilterMeta m = grown(n);
            assertThat(m.classCount()).isEqualTo(n);
            for (int c = 0; c < n; c++) {
                FingerprintClass expected = FingerprintFilterMath.classFor(128, 1e-4, c);
                assertThat(m.width(c)).as("class %d of %d", c, n).isEqualTo(expected.width);
                assertThat(m.capacity(c)).isEqualTo(expected.capacity);
                assertThat(m.entries(c)).isEqualTo(100L * (c + 1));
                // c + 1 splits from one page: c + 2 pages, as linear hashing counts them
                int level = 31 - Integer.numberOfLeadingZeros(c + 2);
                assertThat(m.level(c)).isEqualTo(level);
                assertThat(m.split(c)).isEqualTo(c + 2 - (1 << level));
                assertThat(m.pages(c)).isEqualTo(c + 2);
            }
            assertThat(m.count()).isEqualTo(50L * n * (n + 1));
            FilterMeta back = FilterMeta.ofClasses(128, 1e-4, m.fingerprintClasses());
            assertThat(back.fingerprintClasses())
                    .usingRecursiveFieldByFieldElementComparator()
                    .isEqualTo(m.fingerprintClasses());
        }
    }

    @Test
    void aCopyChangesIndependentlyInEveryClass() {
        FilterMeta m = grown(3);
        List<FingerprintClass> before = m.fingerprintClasses();
        FilterMeta copy = m.copy();
        for (int c = 0; c < 3; c++) {
            copy.addEntries(c, 7);
            copy.advanceSplit(c);
        }
        copy.growClass();
        assertThat(m.fingerprintClasses())
                .usingRecursiveFieldByFieldElementComparator()
                .isEqualTo(before);
        assertThat(m.classCount()).isEqualTo(3);
        assertThat(copy.classCount()).isEqualTo(4);
        assertThat(copy.entries(0)).isEqualTo(before.get(0).count + 7);
        assertThat(copy.entries(2)).isEqualTo(before.get(2).count + 7);
    }

    @Test
    void aKeysSplitThresholdIsItsOwnThoughKeysShareTheirSizing() {
        FilterMeta a = FilterMeta.createFingerprints(128, 1e-4);
        FilterMeta b = FilterMeta.createFingerprints(128, 1e-4);
        a.addEntries(0, 20);
        b.addEntries(0, 20);
        assertThat(a.wantsSplit(0)).isFalse();
        a.splitPagesPast(16);
        assertThat(a.wantsSplit(0)).isTrue();
        assertThat(b.wantsSplit(0)).as("b keeps the default of 512 entries a page").isFalse();
        assertThat(a.copy().wantsSplit(0)).as("a copy keeps a's threshold").isTrue();
        assertThat(a.initialCapacity()).isEqualTo(128);
        assertThat(a.targetFpp()).isEqualTo(1e-4);
    }
}
