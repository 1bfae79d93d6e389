package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Statistical tests in the manner of Guava's BloomFilterTest and Caffeine's MembershipTest: every
 * inserted key is found (zero false negatives), and the measured false-positive rate on keys never
 * inserted stays within a stated bound of the configured rate. Seeds are fixed, so the counts are
 * the same on every run.
 */
class BlockedBloomTest {

    /** Stand-in for a key's pages: all pages of one layer, allocated up front. */
    private static byte[][] pages(BloomLayer g) {
        byte[][] p = new byte[g.pages][];
        for (int i = 0; i < g.pages; i++) {
            p[i] = new byte[g.pageBytes()];
        }
        return p;
    }

    private static List<Fingerprint> fingerprints(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Fingerprint> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(Fingerprint.of("http://example.com/" + rnd.nextLong() + "/" + i));
        }
        return out;
    }

    /**
     * Layers are sized with the blocked model ({@link BloomMath#blockedBits}), so the measured rate
     * must meet the target; the bound allows 1.3x for sampling noise (at least 200 expected false
     * positives per case) and the model's approximation. The lower bound catches a filter that is
     * far larger than it needs to be.
     */
    @ParameterizedTest(name = "n={0}, p={1}")
    @CsvSource({"20000, 0.01", "20000, 0.001", "100000, 0.01", "5000, 0.05", "2000, 0.0001"})
    void noFalseNegativesAndBoundedFalsePositives(int n, double p) {
        BloomLayer g = BloomLayer.sized(n, p);
        byte[][] pages = pages(g);
        List<Fingerprint> in = fingerprints(n, 7);
        for (Fingerprint fp : in) {
            BlockedBloom.put(fp, 0, g, pages[BlockedBloom.page(fp, 0, g)]);
        }
        for (Fingerprint fp : in) {
            assertThat(BlockedBloom.mightContain(fp, 0, g, pages[BlockedBloom.page(fp, 0, g)]))
                    .as("inserted key must be found")
                    .isTrue();
        }
        int probes = (int) Math.max(200_000, 200 / p);
        int fps = 0;
        for (Fingerprint fp : fingerprints(probes, 99)) {
            if (BlockedBloom.mightContain(fp, 0, g, pages[BlockedBloom.page(fp, 0, g)])) {
                fps++;
            }
        }
        double measured = (double) fps / probes;
        assertThat(measured).as("measured rate for target %s", p).isLessThan(p * 1.3);
        assertThat(measured).as("measured rate for target %s", p).isGreaterThan(p * 0.25);
    }

    @Test
    void putReportsWhetherBitsChanged() {
        BloomLayer g = BloomLayer.sized(1000, 0.01);
        byte[][] pages = pages(g);
        Fingerprint fp = Fingerprint.of("http://example.com/x");
        byte[] page = pages[BlockedBloom.page(fp, 0, g)];
        assertThat(BlockedBloom.mightContain(fp, 0, g, page)).isFalse();
        assertThat(BlockedBloom.put(fp, 0, g, page)).isTrue();
        assertThat(BlockedBloom.put(fp, 0, g, page)).isFalse();
        assertThat(BlockedBloom.mightContain(fp, 0, g, page)).isTrue();
    }

    /** Golden layout: a change here changes the state format (stored filters stop matching). */
    @Test
    void goldenBitPositions() {
        BloomLayer g = new BloomLayer(1171, 16, 7, 1_000_000, 0);
        Fingerprint fp = Fingerprint.of("http://example.com/");
        assertThat(BlockedBloom.page(fp, 0, g)).isEqualTo(GOLDEN_PAGE_0);
        assertThat(BlockedBloom.blockOffset(fp, 0, g)).isEqualTo(GOLDEN_BLOCK_0);
        assertThat(BlockedBloom.page(fp, 3, g)).isEqualTo(GOLDEN_PAGE_3);
        assertThat(setBits(fp, 0, g)).isEqualTo(GOLDEN_BITS_0);
        BloomLayer many = new BloomLayer(4, 8, 13, 1000, 0);
        assertThat(setBits(fp, 2, many)).isEqualTo(GOLDEN_BITS_2_K13);
        assertThat(BlockedBloom.pageId(3, 17)).isEqualTo(0x03000011);
    }

    static final int GOLDEN_PAGE_0 = 734;
    static final int GOLDEN_BLOCK_0 = 256;
    static final int GOLDEN_PAGE_3 = 434;
    static final String GOLDEN_BITS_0 = "2080,2137,2195,2342,2353,2461,2526";
    static final String GOLDEN_BITS_2_K13 =
            "3624,3631,3632,3663,3695,3713,3721,3814,3898,3915,3933,4011,4046";

    /** The set bit positions (byte offset * 8 + bit) after one put, as text. */
    static String setBits(Fingerprint fp, int layer, BloomLayer g) {
        byte[] page = new byte[g.pageBytes()];
        BlockedBloom.put(fp, layer, g, page);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < page.length * 8; i++) {
            if ((page[i >>> 3] & (1 << (i & 7))) != 0) {
                sb.append(sb.length() == 0 ? "" : ",").append(i);
            }
        }
        return sb.toString();
    }
}
