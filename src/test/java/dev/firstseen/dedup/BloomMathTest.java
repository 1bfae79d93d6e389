package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class BloomMathTest {
    @Test
    void classicExample() {
        long m = BloomMath.optimalBits(1_000_000, 0.01);
        assertThat(m).isEqualTo(9_585_059L);
        assertThat(m / 8.0 / 1024 / 1024).isBetween(1.14, 1.15); // ≈ 1.14 MiB
        assertThat(BloomMath.optimalHashes(1_000_000, m)).isEqualTo(7);
        assertThat(BloomMath.expectedFpp(1_000_000, m, 7)).isBetween(0.0099, 0.0101);
    }

    @Test
    void moreExamples() {
        assertThat(BloomMath.optimalBits(1000, 0.005)).isEqualTo(11_028L);
        assertThat(BloomMath.optimalHashes(1000, 11_028)).isEqualTo(8);
        assertThat(BloomMath.optimalBits(1, 0.5)).isEqualTo(2L);
        assertThat(BloomMath.optimalHashes(10, 1)).isEqualTo(1); // never zero hashes
    }

    @Test
    void scalableLayersStayWithinTheTarget() {
        double p = 0.01;
        double sum = 0;
        for (int i = 0; i < 24; i++) {
            sum += BloomMath.layerFpp(p, i);
        }
        assertThat(sum).isLessThan(p);
        assertThat(BloomMath.layerFpp(p, 0)).isEqualTo(0.005);
        assertThat(BloomMath.layerCapacity(1000, 0)).isEqualTo(1000);
        assertThat(BloomMath.layerCapacity(1000, 3)).isEqualTo(64_000);
        assertThat(BloomMath.layerCapacity(1L << 40, 20)).isEqualTo(Long.MAX_VALUE); // saturates
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> BloomMath.optimalBits(0, 0.01)).hasMessageContaining("> 0");
        assertThatThrownBy(() -> BloomMath.optimalBits(10, 1.0)).hasMessageContaining("< 1.0");
        assertThatThrownBy(() -> BloomMath.optimalBits(10, 0.0)).hasMessageContaining("> 0.0");
    }

    @Test
    void layerGeometry() {
        // 1000 URLs at 0.5%: 11,028 classic bits, 6% more for blocking -> 23 blocks -> 2 pages
        // of 12 blocks (768 bytes each).
        BloomLayer l = BloomLayer.sized(1000, 0.005);
        assertThat(BloomMath.blockedBits(1000, 0.005, 512)).isBetween(11_028L, 11_028L * 11 / 10);
        assertThat(l.pages).isEqualTo(2);
        assertThat(l.blocksPerPage).isEqualTo(12);
        assertThat(l.pageBytes()).isEqualTo(768);
        assertThat(l.hashes).isEqualTo(7);
        // 1M URLs at 1%: about 4% over the classic 1.14 MiB, in pages of 16 blocks (1 KiB).
        BloomLayer big = BloomLayer.sized(1_000_000, 0.01);
        assertThat(big.blocksPerPage).isEqualTo(16);
        assertThat(big.totalBytes()).isBetween(9_585_059L / 8, 9_585_059L / 8 * 106 / 100);
    }

    @Test
    void blockedModelIsWorseThanClassicAndConvergesForLargeBlocks() {
        long n = 100_000;
        long m = BloomMath.optimalBits(n, 0.001);
        double classic = BloomMath.expectedFpp(n, m, 10);
        assertThat(BloomMath.blockedFpp(n, m, 10, 512)).isGreaterThan(classic);
        // A "block" as large as the filter is a classic filter.
        assertThat(BloomMath.blockedFpp(n, m, 10, 1 << 20))
                .isCloseTo(classic, within(classic * 0.05));
    }

    /**
     * Exact mode's sizing: a layer whose mean rate from half full to full is p needs about a fifth
     * less than one that meets p when full, and its rate when full is what the README quotes.
     */
    @Test
    void meanRateSizingFromHalfFull() {
        long n = 100_000;
        double p = 0.01;
        long atFull = BloomMath.blocksForMeanRate(n, p, 1.0, 512);
        long mean = BloomMath.blocksForMeanRate(n, p, BloomMath.EXACT_FROM_FILL, 512);
        assertThat(atFull).isEqualTo((BloomMath.blockedBits(n, p, 512) + 511) / 512);
        assertThat(mean * 64.0 / n).as("bytes per URL of capacity").isBetween(0.95, 1.0);
        assertThat(atFull * 64.0 / n).isBetween(1.22, 1.28);
        long m = mean * 512;
        int k = BloomMath.meanBlockedHashes(n, 0.5, m, 512);
        assertThat(BloomMath.meanBlockedFpp(n, 0.5, m, k, 512)).isLessThanOrEqualTo(p);
        // One block fewer misses the target: the bisection found the fewest blocks.
        long m1 = (mean - 1) * 512;
        assertThat(
                        BloomMath.meanBlockedFpp(
                                n, 0.5, m1, BloomMath.meanBlockedHashes(n, 0.5, m1, 512), 512))
                .isGreaterThan(p);
        assertThat(BloomMath.blockedFpp(n, m, k, 512)).as("rate when full").isBetween(0.024, 0.027);
        assertThat(BloomMath.blockedFpp(n / 2, m, k, 512)).as("rate half full").isLessThan(0.002);
        // The mean of a sized-when-full layer is far under p: the memory this sizing saves.
        long mf = atFull * 512;
        assertThat(BloomMath.meanBlockedFpp(n, 0.5, mf, BloomMath.blockedHashes(n, mf, 512), 512))
                .isLessThan(p / 2);
    }

    @Test
    void meanRateSizingRejectsAFillOutsideZeroToOne() {
        assertThatThrownBy(() -> BloomMath.blocksForMeanRate(100, 0.01, 1.5, 512))
                .hasMessageContaining("fromFill");
        assertThatThrownBy(() -> BloomMath.blocksForMeanRate(100, 0.01, -0.1, 512))
                .hasMessageContaining("fromFill");
    }
}
