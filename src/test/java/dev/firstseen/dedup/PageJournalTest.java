package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The page journal's element formats, pinned byte for byte; they are part of the savepoint. */
class PageJournalTest {
    @Test
    void elementFormatV2() {
        long[] his = {99L, 0xABCDEF0123456789L, -1L, 0x8000000000000000L, 99L};
        assertThat(HexFormat.of().formatHex(PageJournal.encode(his, 1, 3, 12)))
                .isEqualTo(
                        "02" // format
                                + "0c" // 12 bits an entry
                                + "abc" // top 12 bits of 0xABCDEF...
                                + "fff" // of -1
                                + "800" // of Long.MIN_VALUE
                                + "0"); // padding to a whole byte
        assertThat(HexFormat.of().formatHex(PageJournal.encode(his, 1, 1, 64)))
                .isEqualTo("02" + "40" + "abcdef0123456789");
        assertThat(HexFormat.of().formatHex(PageJournal.encode(his, 1, 2, 8)))
                .isEqualTo("02" + "08" + "ab" + "ff");
    }

    @Test
    void readsFormatV1() throws IOException {
        // Written by the eleventh session's FirstSeen: the format byte and whole high halves.
        long[] back =
                PageJournal.decode(
                        List.of(
                                HexFormat.of()
                                        .parseHex("01" + "0102030405060708" + "ffffffffffffffff")));
        assertThat(back).containsExactly(0x0102030405060708L, -1L);
        // A key journaled before an upgrade and after it: format 1 elements, then format 2.
        long[] mixed =
                PageJournal.decode(
                        List.of(
                                HexFormat.of().parseHex("01" + "0102030405060708"),
                                PageJournal.encode(new long[] {0xABCDEF0123456789L}, 0, 1, 12)));
        assertThat(mixed).containsExactly(0x0102030405060708L, 0xABC0000000000000L);
    }

    @Test
    void keepsTheTopBitsOfEveryWidthInOrder() throws IOException {
        SplittableRandom rnd = new SplittableRandom(23);
        for (int width = PageJournal.MIN_WIDTH; width <= 64; width++) {
            for (int n : new int[] {0, 1, 7, 8, 9, 1000}) {
                long[] his = new long[n];
                for (int i = 0; i < n; i++) {
                    his[i] = rnd.nextLong();
                }
                byte[] b = PageJournal.encode(his, 0, n, width);
                assertThat(b).hasSize((int) PageJournal.elementBytes(n, width));
                long[] back = PageJournal.decode(List.of(b, PageJournal.encode(his, 0, n, 64)));
                assertThat(back).hasSize(2 * n);
                long mask = width == 64 ? -1L : -1L << (64 - width);
                for (int i = 0; i < n; i++) {
                    assertThat(back[i]).as("width %d entry %d", width, i).isEqualTo(his[i] & mask);
                    assertThat(back[n + i]).isEqualTo(his[i]);
                }
            }
        }
    }

    /**
     * Pages written whole, then inserts journaled at the key's width over several checkpoints
     * (classes added and pages split meanwhile): replaying the journal over the stored pages gives
     * the pages and metadata the heap copy had, byte for byte, in approximate mode at 1% and 1e-4
     * and in exact mode.
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
                journal.add(heap.takePending());
            }
            if (start.isExactFingerprints()) { // one class that splits its pages
                assertThat(heap.meta.pages(0)).as("pages split").isGreaterThan(pagesBefore);
            } else {
                assertThat(heap.meta.classCount()).as("classes added").isGreaterThan(classesBefore);
            }
            assertThat(journal.get(journal.size() - 1)[1] & 0xFF)
                    .isEqualTo(Math.max(8, heap.meta.width(heap.meta.classCount() - 1)));
            Map<Integer, byte[]> onHeap = new HashMap<>(stored);
            heap.drainDirty((id, page) -> onHeap.put(id, page.clone()));

            KeyFilter replayed = new KeyFilter("k", storedMeta.copy(), false);
            replayed.replay(PageJournal.decode(journal), stored::get);
            Map<Integer, byte[]> rebuilt = new HashMap<>(stored);
            replayed.drainDirty((id, page) -> rebuilt.put(id, page.clone()));
            assertThat(replayed.meta.fingerprintClasses().toString())
                    .isEqualTo(heap.meta.fingerprintClasses().toString());
            assertThat(rebuilt.keySet()).isEqualTo(onHeap.keySet());
            for (Integer id : onHeap.keySet()) {
                assertThat(rebuilt.get(id)).as("page %d", id).isEqualTo(onHeap.get(id));
            }
        }
    }

    @Test
    void decodesElementsInOrder() throws IOException {
        byte[] a = PageJournal.encode(new long[] {5, Long.MIN_VALUE}, 0, 2, 64);
        byte[] none = PageJournal.encode(new long[0], 0, 0, 22);
        long[] many = new long[40];
        for (int i = 0; i < many.length; i++) {
            many[i] = 0x9E3779B97F4A7C15L * (i + 1);
        }
        byte[] c = PageJournal.encode(many, 0, many.length, 64);
        long[] back = PageJournal.decode(List.of(a, none, c));
        assertThat(back).hasSize(42);
        assertThat(back[0]).isEqualTo(5);
        assertThat(back[1]).isEqualTo(Long.MIN_VALUE);
        for (int i = 0; i < many.length; i++) {
            assertThat(back[2 + i]).isEqualTo(many[i]);
        }
        assertThat(PageJournal.decode(List.of())).isEmpty();
    }

    @Test
    void widthIsTheWidestClassAndAtLeastEight() {
        assertThat(PageJournal.width(3)).isEqualTo(8);
        assertThat(PageJournal.width(22)).isEqualTo(22);
        assertThat(PageJournal.width(FilterMeta.EXACT_WIDTH)).isEqualTo(63);
        assertThatThrownBy(() -> PageJournal.encode(new long[1], 0, 1, 7))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesWhatItDidNotWrite() {
        assertThatThrownBy(() -> PageJournal.decode(List.of(HexFormat.of().parseHex("03"))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("format 3");
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
    }
}
