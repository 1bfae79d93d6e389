package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A key's filter grown far past its first layer keeps both promises: no false negatives, and a
 * compound false-positive rate within the target (the layers' rates sum to less than it).
 */
class ScalableBloomTest {
    private static final KeyFilter.PageLoader EMPTY_STATE = id -> null;

    @ParameterizedTest(name = "n0={0}, inserted={1}, p={2}")
    @CsvSource({"100, 30000, 0.01", "1000, 50000, 0.001", "50, 5000, 0.05"})
    void growsWithoutFalseNegativesAndKeepsTheCompoundRate(int n0, int inserted, double p)
            throws Exception {
        KeyFilter f = new KeyFilter("k", FilterMeta.create(n0, p), true);
        long[] loads = new long[1];
        for (int i = 0; i < inserted; i++) {
            f.insert(Fingerprint.of("http://k.example/in/" + i), EMPTY_STATE, loads);
        }
        assertThat(f.meta.layerCount()).isGreaterThan(2);
        assertThat(f.meta.count()).isEqualTo(inserted);
        for (int i = 0; i < inserted; i++) {
            assertThat(
                            f.mightContain(
                                    Fingerprint.of("http://k.example/in/" + i), EMPTY_STATE, loads))
                    .isTrue();
        }
        int probes = (int) Math.max(100_000, 300 / p);
        int fps = 0;
        for (int i = 0; i < probes; i++) {
            if (f.mightContain(Fingerprint.of("http://k.example/out/" + i), EMPTY_STATE, loads)) {
                fps++;
            }
        }
        double measured = (double) fps / probes;
        assertThat(measured).as("compound rate, target %s", p).isLessThan(p * 1.3);
    }

    @Test
    void layersGrowGeometrically() throws Exception {
        KeyFilter f = new KeyFilter("k", FilterMeta.create(10, 0.01), true);
        long[] loads = new long[1];
        for (int i = 0; i < 10 + 40 + 160 + 1; i++) {
            f.insert(Fingerprint.of("u" + i), EMPTY_STATE, loads);
        }
        assertThat(f.meta.layerCount()).isEqualTo(4);
        assertThat(f.meta.layer(3).capacity).isEqualTo(640);
        assertThat(f.meta.layer(3).count()).isEqualTo(1);
        assertThat(f.meta.layer(0).isFull()).isTrue();
    }

    @Test
    void pagesAreAllocatedOnlyWhenWritten() throws Exception {
        KeyFilter f = new KeyFilter("k", FilterMeta.create(100_000, 0.01), true);
        long[] loads = new long[1];
        long empty = f.bytes();
        assertThat(f.mightContain(Fingerprint.of("x"), EMPTY_STATE, loads)).isFalse();
        assertThat(f.loadedPages()).isZero();
        f.insert(Fingerprint.of("x"), EMPTY_STATE, loads);
        assertThat(f.loadedPages()).isEqualTo(1);
        assertThat(f.dirtyPages()).isEqualTo(1);
        assertThat(f.bytes() - empty).isLessThan(2 * 1024 + 8 * 200L); // one page + page table
    }

    @Test
    void releaseDropsPagesOnlyWhenClean() throws Exception {
        KeyFilter f = new KeyFilter("k", FilterMeta.create(1000, 0.01), true);
        long[] loads = new long[1];
        f.insert(Fingerprint.of("x"), EMPTY_STATE, loads);
        org.assertj.core.api.Assertions.assertThatThrownBy(f::release)
                .hasMessageContaining("lose bits");
        f.metaDirty = false;
        f.drainDirty((id, page) -> {});
        f.release();
        assertThat(f.loadedPages()).isZero();
        assertThat(f.bytes()).isLessThan(200);
    }
}
