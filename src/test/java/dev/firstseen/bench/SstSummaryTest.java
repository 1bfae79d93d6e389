package dev.firstseen.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What {@link SstSummary} counts as older versions, whatever order it reads the files in. */
class SstSummaryTest {
    @Test
    void anEntryIsOlderIfANewerFileHoldsItsKey() {
        for (long[] order : new long[][] {{5, 9, 7}, {9, 7, 5}, {7, 5, 9}}) {
            SstSummary.Family f = new SstSummary.Family();
            for (long file : order) {
                // key "a" in every file, its value file-number bytes long; "b" only in file 9
                SstSummary.older(f, key("a"), file, (int) file);
                if (file == 9) {
                    SstSummary.older(f, key("b"), file, 100);
                }
            }
            assertEquals(2, f.olderEntries, "files 5 and 7 hold older versions of a");
            assertEquals(5 + 7, f.olderValueBytes, "their values' bytes");
        }
    }

    @Test
    void operandsOfOneKeyInOneFileAreNotOlder() {
        SstSummary.Family f = new SstSummary.Family();
        SstSummary.older(f, key("j"), 3, 10);
        SstSummary.older(f, key("j"), 3, 12);
        assertEquals(0, f.olderEntries);
    }

    @Test
    void theFileNumberIsReadFromItsName() {
        assertEquals(123, SstSummary.fileNumber("db/000123.sst"));
        assertEquals(7, SstSummary.fileNumber("000007.sst"));
    }

    private static ByteBuffer key(String k) {
        return ByteBuffer.wrap(k.getBytes(StandardCharsets.UTF_8));
    }
}
