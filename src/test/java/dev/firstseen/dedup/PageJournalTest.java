package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The page journal's element formats, pinned byte for byte; they are part of the savepoint. */
class PageJournalTest {
    @Test
    void elementFormatV3() throws IOException {
        long[] his = {99L, 0x05L << 56 | 0xFF, 0x03L << 56, 0x10L << 56, 0xABCL << 52 | 1, 99L};
        byte[] b = PageJournal.encode(his, new int[] {1, 4, 4, 5}, new int[] {8, 20, 12});
        assertThat(HexFormat.of().formatHex(b))
                .isEqualTo(
                        "03" // format
                                // 8-bit values 3, 5, 16: gaps 3, 2, 11 at k = 2: 0|11 0|10 110|11
                                + "08" // width
                                + "03" // entries
                                + "02" // k
                                + "6b60" // 01101011 011 and padding
                                // the empty 20-bit segment is left out
                                // 12-bit 0xABC = 2748: k = 10, 2 in unary, then 700 in 10 bits
                                + "0c"
                                + "01"
                                + "0a"
                                + "d5e0"); // 110 1010111100 and padding
        assertThat(PageJournal.decode(List.of(b)))
                .containsExactly(0x03L << 56, 0x05L << 56, 0x10L << 56, 0xABCL << 52);
    }

    @Test
    void readsFormatsV1AndV2() throws IOException {
        // Format 1, written by the eleventh session's FirstSeen: whole high halves.
        assertThat(
                        PageJournal.decode(
                                List.of(
                                        HexFormat.of()
                                                .parseHex(
                                                        "01"
                                                                + "0102030405060708"
                                                                + "ffffffffffffffff"))))
                .containsExactly(0x0102030405060708L, -1L);
        // Format 2, written by the twelfth: a width, then prefixes in insertion order.
        assertThat(PageJournal.decode(List.of(HexFormat.of().parseHex("02" + "0c" + "abcfff8000"))))
                .containsExactly(0xABCL << 52, 0xFFFL << 52, 0x800L << 52);
        assertThat(
                        PageJournal.decode(
                                List.of(HexFormat.of().parseHex("02" + "40" + "abcdef0123456789"))))
                .containsExactly(0xABCDEF0123456789L);
        assertThat(PageJournal.decode(List.of(HexFormat.of().parseHex("02" + "08" + "abff"))))
                .containsExactly(0xABL << 56, 0xFFL << 56);
        // A key journaled across two upgrades: formats 1, 2 and 3 in one list, read in order.
        long[] mixed =
                PageJournal.decode(
                        List.of(
                                HexFormat.of().parseHex("01" + "0102030405060708"),
                                HexFormat.of().parseHex("02" + "0c" + "abc0"),
                                PageJournal.encode(
                                        new long[] {0xDEF0123456789ABCL},
                                        new int[] {0, 1},
                                        new int[] {16})));
        assertThat(mixed).containsExactly(0x0102030405060708L, 0xABCL << 52, 0xDEF0L << 48);
    }

    @Test
    void keepsTheTopBitsOfEveryWidthSortedWithinASegment() throws IOException {
        SplittableRandom rnd = new SplittableRandom(23);
        for (int width = PageJournal.MIN_WIDTH; width <= PageJournal.MAX_WIDTH; width++) {
            for (int n : new int[] {1, 2, 7, 8, 9, 1000, 20000}) {
                long[] his = new long[n];
                for (int i = 0; i < n; i++) {
                    // Clustered values as well as spread ones: gaps of every size.
                    his[i] = i % 3 == 0 ? rnd.nextLong() : his[i - 1] + rnd.nextInt(1 << 20);
                }
                int cut = n / 3;
                int other = Math.max(PageJournal.MIN_WIDTH, width - 5);
                byte[] b = PageJournal.encode(his, new int[] {0, cut, n}, new int[] {other, width});
                long[] back = PageJournal.decode(List.of(b));
                assertThat(back).hasSize(n);
                long[] first = new long[cut];
                long[] second = new long[n - cut];
                for (int i = 0; i < n; i++) {
                    int w = i < cut ? other : width;
                    long top = his[i] & (-1L << (64 - w));
                    if (i < cut) {
                        first[i] = top >>> 1; // unsigned order
                    } else {
                        second[i - cut] = top >>> 1;
                    }
                }
                Arrays.sort(first);
                Arrays.sort(second);
                for (int i = 0; i < n; i++) {
                    long want = (i < cut ? first[i] : second[i - cut]) << 1;
                    assertThat(back[i]).as("width %d, n %d, entry %d", width, n, i).isEqualTo(want);
                }
                // Rice code: at most max(w - log2 n, 0) + 3 bits an entry, a segment's header
                // (at most 5 bytes) and padding beside.
                assertThat((double) b.length)
                        .as("width %d, n %d", width, n)
                        .isLessThanOrEqualTo(1 + riceBound(cut, other) + riceBound(n - cut, width));
            }
        }
    }

    private static double riceBound(int n, int width) {
        if (n == 0) {
            return 0;
        }
        double bits = n * (Math.max(width - Math.log(n) / Math.log(2), 0) + 3);
        return 6 + Math.ceil(bits / 8);
    }

    /**
     * Pages written whole, then inserts journaled over several checkpoints (classes added and pages
     * split meanwhile): replaying the journal, each class's inserts sorted, over the stored pages
     * gives the metadata the heap copy had and pages that hold the same sets, in approximate mode
     * at 1% and 1e-4 and in exact mode. Not the same bytes: a page keeps its newest few entries in
     * insertion order in an unsorted tail ({@link FingerprintPage}).
     */
    @Test
    void replayingNarrowEntriesRebuildsThePagesExactly() throws Exception {
        for (FilterMeta start :
                List.of(
                        FilterMeta.createFingerprints(128, 1e-2),
                        FilterMeta.createFingerprints(128, 1e-4),
                        FilterMeta.createExactFingerprints(128))) {
            SplittableRandom rnd = new SplittableRandom(31);
            KeyFilter heap = new KeyFilter("k", start.copy(), true);
            Map<Integer, byte[]> stored = new HashMap<>();
            for (int i = 0; i < 300; i++) {
                heap.insert(new Fingerprint(rnd.nextLong(), rnd.nextLong()), stored::get);
            }
            FilterMeta storedMeta = heap.meta.copy();
            heap.drainDirty((id, page) -> stored.put(id, page.clone()));
            heap.wroteWhole(true);
            int classesBefore = storedMeta.classCount();
            int pagesBefore = storedMeta.pages(0);
            List<byte[]> journal = new ArrayList<>();
            for (int checkpoint = 0; checkpoint < 4; checkpoint++) {
                for (int i = 0; i < 5000; i++) {
                    heap.insert(new Fingerprint(rnd.nextLong(), rnd.nextLong()), stored::get);
                }
                byte[] element = heap.takePending(100);
                assertThat(element).isNotNull();
                // Smaller than format 2, which kept 5,000 entries of the widest class's bits.
                int widest = PageJournal.width(heap.meta.width(heap.meta.classCount() - 1));
                assertThat(element.length).isLessThan(2 + 5000 * widest / 8);
                journal.add(element);
            }
            if (start.isExactFingerprints()) { // one class that splits its pages
                assertThat(heap.meta.pages(0)).as("pages split").isGreaterThan(pagesBefore);
            } else {
                assertThat(heap.meta.classCount()).as("classes added").isGreaterThan(classesBefore);
            }
            Map<Integer, byte[]> onHeap = new HashMap<>(stored);
            heap.drainDirty((id, page) -> onHeap.put(id, page.clone()));

            KeyFilter replayed = new KeyFilter("k", storedMeta.copy(), false);
            replayed.replay(PageJournal.decode(journal), stored::get);
            Map<Integer, byte[]> rebuilt = new HashMap<>(stored);
            replayed.drainDirty((id, page) -> rebuilt.put(id, page.clone()));
            assertThat(replayed.meta.fingerprintClasses().toString())
                    .isEqualTo(heap.meta.fingerprintClasses().toString());
            assertThat(rebuilt.keySet()).isEqualTo(onHeap.keySet());
            int sameBytes = 0;
            for (Integer id : onHeap.keySet()) {
                int s = heap.meta.suffixBits(id >>> 24, id & 0xFFFFFF);
                assertThat(FingerprintPage.decode(rebuilt.get(id), s))
                        .as("page %d", id)
                        .isEqualTo(FingerprintPage.decode(onHeap.get(id), s));
                sameBytes += Arrays.equals(rebuilt.get(id), onHeap.get(id)) ? 1 : 0;
            }
            assertThat(sameBytes).as("pages of the same bytes").isLessThan(onHeap.size());
        }
    }

    @Test
    void boundFactorIsUniformFromAQuarterToOneAndAFunctionOfItsInputs() {
        int n = 100_000;
        double sum = 0;
        int[] quarters = new int[4];
        for (int i = 0; i < n; i++) {
            double f = KeyFilter.boundFactor(("key-" + i % 1000).hashCode(), 137L * (i / 1000));
            assertThat(f).isBetween(0.25, 1.0);
            assertThat(KeyFilter.boundFactor(("key-" + i % 1000).hashCode(), 137L * (i / 1000)))
                    .isEqualTo(f);
            sum += f;
            quarters[Math.min(3, (int) ((f - 0.25) / 0.1875))]++;
        }
        assertThat(sum / n).isCloseTo(0.625, within(0.005));
        for (int q : quarters) {
            assertThat(q).isBetween(n / 4 - n / 100, n / 4 + n / 100);
        }
    }

    /**
     * Keys that grow alike (the same inserts per checkpoint) reach their journal bounds at
     * different checkpoints, so their whole writes do not all fall on one checkpoint.
     */
    @Test
    void keysGrowingAlikeWriteWholeAtDifferentCheckpoints() throws Exception {
        int keys = 200;
        int checkpoints = 24;
        int[] whole = new int[checkpoints];
        SplittableRandom rnd = new SplittableRandom(41);
        for (int k = 0; k < keys; k++) {
            KeyFilter f = new KeyFilter("key-" + k, FilterMeta.createFingerprints(128, 1e-4), true);
            Map<Integer, byte[]> stored = new HashMap<>();
            for (int i = 0; i < 1000; i++) {
                f.insert(new Fingerprint(rnd.nextLong(), rnd.nextLong()), stored::get);
            }
            f.drainDirty((id, page) -> stored.put(id, page.clone()));
            f.wroteWhole(true);
            for (int c = 0; c < checkpoints; c++) {
                for (int i = 0; i < 40; i++) {
                    f.insert(new Fingerprint(rnd.nextLong(), rnd.nextLong()), stored::get);
                }
                if (!f.mayJournal() || f.takePending(0.4) == null) {
                    f.drainDirty((id, page) -> stored.put(id, page.clone()));
                    f.wroteWhole(true);
                    whole[c]++;
                }
            }
        }
        int total = Arrays.stream(whole).sum();
        int most = Arrays.stream(whole).max().orElseThrow();
        int checkpointsWithWholeWrites = (int) Arrays.stream(whole).filter(w -> w > 0).count();
        assertThat(total).as("whole writes").isGreaterThan(keys);
        assertThat(most)
                .as("whole writes at the busiest checkpoint of %s", Arrays.toString(whole))
                .isLessThan(keys / 3);
        assertThat(checkpointsWithWholeWrites).isGreaterThan(checkpoints / 2);
    }

    @Test
    void decodesElementsAndSegmentsInOrder() throws IOException {
        byte[] a =
                PageJournal.encode(
                        new long[] {-1L, 5L << 40, Long.MIN_VALUE},
                        new int[] {0, 1, 3},
                        new int[] {8, 30});
        byte[] none = PageJournal.encode(new long[0], new int[] {0, 0}, new int[] {22});
        long[] many = new long[40];
        for (int i = 0; i < many.length; i++) {
            many[i] = 0x9E3779B97F4A7C15L * (i + 1) >>> 1; // 63 bits, to compare unsigned
        }
        byte[] c = PageJournal.encode(many, new int[] {0, many.length}, new int[] {63});
        long[] back = PageJournal.decode(List.of(a, none, c));
        assertThat(back).hasSize(43);
        // Segment by segment: the 8-bit one, then the 30-bit one sorted.
        assertThat(back[0]).isEqualTo(0xFFL << 56);
        assertThat(back[1]).isEqualTo(5L << 40);
        assertThat(back[2]).isEqualTo(Long.MIN_VALUE);
        long[] sorted = many.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < many.length; i++) {
            assertThat(back[3 + i]).isEqualTo(sorted[i] & ~1L); // its top 63 bits
        }
        assertThat(PageJournal.decode(List.of())).isEmpty();
    }

    @Test
    void widthIsTheClassWidthAtLeastEight() {
        assertThat(PageJournal.width(3)).isEqualTo(8);
        assertThat(PageJournal.width(22)).isEqualTo(22);
        assertThat(PageJournal.width(FilterMeta.EXACT_WIDTH)).isEqualTo(63);
        assertThatThrownBy(() -> PageJournal.encode(new long[1], new int[] {0, 1}, new int[] {7}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PageJournal.encode(new long[1], new int[] {0, 1}, new int[] {64}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesWhatItDidNotWrite() {
        assertThatThrownBy(() -> PageJournal.decode(List.of(HexFormat.of().parseHex("04"))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("format 4");
        assertThatThrownBy(() -> PageJournal.decode(List.of(HexFormat.of().parseHex("0101020304"))))
                .hasMessageContaining("5 bytes");
        assertThatThrownBy(() -> PageJournal.decode(List.of(new byte[0])))
                .hasMessageContaining("format none");
        assertThatThrownBy(() -> PageJournal.decode(List.of(HexFormat.of().parseHex("0207ff"))))
                .hasMessageContaining("width 7");
        // Two 12-bit entries in 4 bytes after the header leave 8 bits: a whole byte too many.
        assertThatThrownBy(
                        () -> PageJournal.decode(List.of(HexFormat.of().parseHex("020cabcfff00"))))
                .hasMessageContaining("width 12");
        for (String bad :
                new String[] {
                    "0307010000", // width 7
                    "0308000000", // no entries
                    "0308010900", // k past the width
                    "03080100ff", // a quotient that runs past the element
                    "0308010001", // padding that is not zero
                    "03080108" + "8000", // 1 << 8 + 0: past 8 bits
                    "030802", // no Rice parameter
                    "0308ff", // an entry count that runs past the element
                    "03080500", // five entries and no bits
                }) {
            assertThatThrownBy(() -> PageJournal.decode(List.of(HexFormat.of().parseHex(bad))))
                    .as(bad)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("format 3");
        }
    }
}
