package dev.firstseen.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The subtask simulation on a small crawl: its SST summary accounts for the checkpoint's files by
 * column family, and Flink's RocksDB options given on its command line reach the backend.
 */
class SubtaskSimulationTest {
    private static final Pattern ROW =
            Pattern.compile(
                    "^  (\\S+)\\s+(\\d+)\\s+([\\d,]+)\\s+[\\d,]+\\s+[\\d,]+\\s+([\\d,]+)\\s+"
                            + "[\\d,]+\\s+([\\d,]+)\\s+([\\d,]+)\\s+[\\d,]+\\s+([\\d,]+)\\s+"
                            + "[\\d.]+\\s+(\\S+)$",
                    Pattern.MULTILINE);
    private static final int ENTRIES = 3;
    private static final int OLDER = 4;
    private static final int RAW_VALUE = 5;
    private static final int OLDER_VALUE = 6;
    private static final int FILE = 7;
    private static final int COMPRESSION = 8;

    private static final Pattern CHECKPOINT =
            Pattern.compile("^checkpoint ([\\d,]+) B = ", Pattern.MULTILINE);

    @Test
    void theSstSummaryAccountsForTheCheckpointByColumnFamily() throws Exception {
        String out = simulate();
        Map<String, String[]> rows = rows(out);
        assertTrue(rows.containsKey("bloom-meta"), out);
        assertTrue(rows.containsKey("bloom-pages"), out);
        long sum = 0;
        for (Map.Entry<String, String[]> e : rows.entrySet()) {
            if (!e.getKey().equals("all")) {
                sum += number(e.getValue()[FILE]);
            }
        }
        assertEquals(sum, number(rows.get("all")[FILE]), "the 'all' row sums the families");
        // Every key the stream touched has its metadata entry (200 keys, all of them hit).
        assertTrue(number(rows.get("bloom-meta")[ENTRIES]) >= 200, out);
        // The pages are the filter: most of the raw values.
        long pagesRaw = number(rows.get("bloom-pages")[RAW_VALUE]);
        assertTrue(pagesRaw > number(rows.get("all")[RAW_VALUE]) / 2, out);
        // With the snapshot's other files, they are the whole checkpoint.
        Matcher m = CHECKPOINT.matcher(out);
        assertTrue(m.find(), out);
        assertEquals(number(m.group(1)), number(rows.get("all")[FILE]), out);
        assertTrue(rows.containsKey(SstSummary.NOT_SST), out);
        // Older versions are some of the entries and of their bytes.
        for (String[] row : rows.values()) {
            assertTrue(number(row[OLDER]) <= number(row[ENTRIES]), out);
            assertTrue(number(row[OLDER_VALUE]) <= number(row[RAW_VALUE]), out);
        }
        assertEquals(
                "Snappy",
                rows.get("bloom-pages")[COMPRESSION],
                "Flink's default block compression");
    }

    private static final Pattern CPU =
            Pattern.compile(
                    "^CPU of this JVM over the feed and its checkpoints: ([\\d.]+) µs a record ="
                            + " the operator's thread ([\\d.]+) on records \\+ ([\\d.]+) on periodic"
                            + " checkpoints \\+ other threads (-?[\\d.]+) ",
                    Pattern.MULTILINE);

    @Test
    void theCpuAccountSplitsTheJvmsTimeBetweenTheOperatorAndTheOtherThreads() throws Exception {
        String out = simulate();
        Matcher m = CPU.matcher(out);
        assertTrue(m.find(), out);
        double all = Double.parseDouble(m.group(1));
        double records = Double.parseDouble(m.group(2));
        double checkpoints = Double.parseDouble(m.group(3));
        double other = Double.parseDouble(m.group(4));
        assertTrue(records > 0, out);
        assertTrue(checkpoints > 0, "eight periodic checkpoints ran on the operator's thread");
        // The process's CPU holds the operator thread's: the rest is never negative.
        assertTrue(other >= 0, out);
        assertEquals(all, records + checkpoints + other, 0.03, out);
    }

    @Test
    void rocksDbOptionsOnTheCommandLineReachTheBackend() throws Exception {
        String out = simulate("--state.backend.rocksdb.compression.per.level", "ZSTD_COMPRESSION");
        Map<String, String[]> rows = rows(out);
        assertEquals("ZSTD", rows.get("bloom-pages")[COMPRESSION], out);
        assertEquals("ZSTD", rows.get("all")[COMPRESSION], out);
    }

    private static String simulate(String... extra) throws Exception {
        String[] base = {
            "--urls", "20000", "--keys", "200", "--rate", "1e-4", "--checkpoint-every", "5000"
        };
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream capture = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            SubtaskSimulation.main(args);
        } finally {
            System.setOut(saved);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    /** Column family to its row's groups of {@link #ROW}, group k at index k. */
    private static Map<String, String[]> rows(String out) {
        Map<String, String[]> rows = new HashMap<>();
        Matcher m = ROW.matcher(out);
        while (m.find()) {
            String[] g = new String[m.groupCount() + 1];
            for (int k = 0; k < g.length; k++) {
                g[k] = m.group(k);
            }
            rows.put(g[1], g);
        }
        return rows;
    }

    private static long number(String s) {
        return Long.parseLong(s.replace(",", ""));
    }
}
