package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The page journal's element format, pinned byte for byte; it is part of the savepoint format. */
class PageJournalTest {
    @Test
    void elementFormatV1() {
        byte[] b = PageJournal.encode(new long[] {99L, 0x0102030405060708L, -1L, 99L}, 1, 2);
        assertThat(HexFormat.of().formatHex(b))
                .isEqualTo(
                        "01" // format
                                + "0102030405060708" // high 64 bits of a fingerprint
                                + "ffffffffffffffff");
    }

    @Test
    void decodesElementsInOrder() throws IOException {
        byte[] a = PageJournal.encode(new long[] {5, Long.MIN_VALUE}, 0, 2);
        byte[] none = PageJournal.encode(new long[0], 0, 0);
        long[] many = new long[40];
        for (int i = 0; i < many.length; i++) {
            many[i] = 0x9E3779B97F4A7C15L * (i + 1);
        }
        byte[] c = PageJournal.encode(many, 0, many.length);
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
    void refusesWhatItDidNotWrite() {
        assertThatThrownBy(() -> PageJournal.decode(List.of(HexFormat.of().parseHex("02"))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("format 2");
        assertThatThrownBy(() -> PageJournal.decode(List.of(HexFormat.of().parseHex("0101020304"))))
                .hasMessageContaining("5 bytes");
        assertThatThrownBy(() -> PageJournal.decode(List.of(new byte[0])))
                .hasMessageContaining("format none");
    }
}
