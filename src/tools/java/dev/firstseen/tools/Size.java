package dev.firstseen.tools;

import static dev.firstseen.dedup.DedupConfig.DEFAULT_FILTER_CACHE_HEAP_FRACTION;

import dev.firstseen.dedup.DedupMode;
import dev.firstseen.dedup.ExactStoreType;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Sizes a FirstSeen deployment from figures this project measured, and says which measurement each
 * comes from. Nothing here is a promise: the figures were taken on one 2-core machine with the
 * crawler-like test stream, and a real crawl's URL lengths, key skew and repeat rate move them.
 *
 * <pre>
 * Size --urls 1e10 [--mode exact|approximate] [--store pages|entries] [--rate 0.01] [--domains 1e6]
 *      [--input-rate 0] [--slot-heap 2g] [--slot-disk 200g] [--restore-mb-per-s 200]
 * </pre>
 *
 * Slots are the most of what heap (Bloom page cache), local disk (RocksDB) and input rate each
 * need; each is printed with its own count.
 */
public final class Size {
    private Size() {}

    static final String USAGE =
            "Usage: Size --urls N [--mode exact|approximate] [--store pages|entries]"
                    + " [--rate 0.01|0.0001|1e-9] [--domains N]"
                    + " [--input-rate RECORDS_PER_S] [--slot-heap 2g] [--slot-disk 200g]"
                    + " [--restore-mb-per-s 200]";

    /** One measured per-URL figure and where it comes from. */
    record Figure(double value, String source) {}

    /** The measured figures for a mode and rate; null where nothing was measured. */
    record Figures(
            Figure localBytesPerUrl,
            Figure checkpointBytesPerUrl,
            Figure heapBytesPerUrl,
            Figure heapBytesPerKey,
            Figure recordsPerSecondPerSlot) {}

    private static final Figure PER_KEY =
            new Figure(
                    400,
                    "FilterCacheFootprintTest: a clean cached key with one 128-byte page, counted"
                            + " 400 B, JOL measures 398 B (2026-11-25; 406 B on 2026-11-23)");

    /**
     * Exact mode's figures with {@code dedup.exact.store: PAGES}, where the rate plays no part.
     * From the 200 M run with every option at its default (page journal included) rather than the
     * 50 M ones: its pages per URL were as large and its per-key objects larger.
     */
    static Figures exactPagesFigures() {
        return new Figures(
                new Figure(
                        10.36,
                        "docs/scale-200m-exact-journal.txt: RocksDB 1,812,500,718 B at"
                                + " 174,886,663 URLs, the largest per URL of the last 20%"),
                new Figure(
                        9.40,
                        "docs/scale-200m-exact-journal.txt: largest checkpoint 1,838,389,951 B"
                                + " at about 195.6 M URLs (18.24 with pages written whole at every"
                                + " checkpoint: docs/scale-200m-exact-pages-128.txt)"),
                new Figure(
                        6.53,
                        "docs/scale-200m-exact-journal.txt: fingerprint pages 6.53 B per URL at"
                                + " 200 M, 128 entries per page"),
                new Figure(
                        2346,
                        "docs/scale-200m-exact-journal.txt: 20,000 cached keys (10,000 URLs each"
                                + " on average), 2,346 B each as the filter cache counts them"),
                new Figure(
                        316_808,
                        "docs/scale-200m-exact-journal.txt: 633,617 records/s on 2 slots at"
                                + " 158-199 M URLs (735,278 in the first 60 s)"));
    }

    /**
     * The figures for {@code urlsPerKey} URLs a key. Approximate mode at 1% and 1e-4 and exact
     * mode's fingerprint pages were also measured with small keys, in the subtask simulation (100
     * URLs a key on average, Zipf, and 500 in approximate mode), where per-key objects and a key's
     * journal weigh more than in the scale runs' keys (2,500 URLs in approximate mode, 10,000 in
     * exact mode's 200 M run); the nearest measured size on a log scale is taken. Other settings
     * have their one figure set.
     */
    static Figures figures(DedupMode mode, ExactStoreType store, double rate, double urlsPerKey) {
        Figures f = figures(mode, store, rate);
        if (f == null) {
            return null;
        }
        if (mode == DedupMode.EXACT && store == ExactStoreType.PAGES) {
            if (urlsPerKey >= 1000) { // sqrt(100 * 10,000)
                return f;
            }
            String sim = "docs/simulate-subtask-10m-exact-session14.txt";
            return smallKeys(
                    f,
                    new Figure(
                            9.25,
                            sim
                                    + ": largest checkpoint 83,207,948 B at 9.0 M URLs, 100,000 keys"
                                    + " of 100 URLs on average, a checkpoint every 1 M records"),
                    new Figure(
                            6.76, sim + ": fingerprint pages 6.76 B/URL, 100,000 keys of 100 URLs"),
                    new Figure(
                            49,
                            "docs/simulate-subtask-10m-arena-session17.txt: 100,000 cached keys,"
                                    + " 99,597 of them packed, 0.49 B/URL of per-key objects after"
                                    + " a checkpoint (the most heap between two checkpoints:"
                                    + " 7.51 B/URL at 1,000 records/s a subtask and 7.84 at"
                                    + " 10,000, docs/simulate-subtask-10m-fpp1e-4-arena-session24"
                                    + ".txt)"));
        }
        if (mode != DedupMode.APPROXIMATE
                || (rate != 0.0001 && rate != 0.01)
                || urlsPerKey >= 1118) {
            return f; // 1,118 = sqrt(500 * 2,500)
        }
        boolean hundred = urlsPerKey < 224; // sqrt(100 * 500)
        String rows = "docs/simulate-subtask-size-rows-session46.txt";
        if (rate == 0.01) {
            return hundred
                    ? smallKeys(
                            f,
                            new Figure(
                                    2.01,
                                    rows
                                            + ": largest checkpoint 19,072,484 B at 9.5 M URLs,"
                                            + " 100,000 keys of 100 URLs on average, a checkpoint"
                                            + " every 1 M records, the larger of two runs (2.12"
                                            + " before pages were stored Rice-coded and split past"
                                            + " 1024, docs/simulate-subtask-10m-fpp1e-2-session34"
                                            + ".txt)"),
                            new Figure(
                                    1.66,
                                    rows + ": filter pages 1.66 B/URL, 100,000 keys of 100 URLs"),
                            new Figure(
                                    35,
                                    rows
                                            + ": 100,000 cached keys, 99,686 of them packed, 0.35"
                                            + " B/URL of per-key objects after a checkpoint (the"
                                            + " most heap between two checkpoints: 2.33 B/URL in"
                                            + " the last interval and 2.92 in the last ten at"
                                            + " 100,000 records/s a subtask)"))
                    : smallKeys(
                            f,
                            new Figure(
                                    1.71,
                                    rows
                                            + ": largest checkpoint 16,215,072 B at 9.5 M URLs,"
                                            + " 20,000 keys of 500 URLs on average, a checkpoint"
                                            + " every 1 M records, the larger of two runs (1.81"
                                            + " before pages were stored Rice-coded and split past"
                                            + " 1024, docs/simulate-subtask-10m-fpp1e-2-session34"
                                            + ".txt)"),
                            new Figure(
                                    1.58,
                                    rows + ": filter pages 1.58 B/URL, 20,000 keys of 500 URLs"),
                            new Figure(
                                    50,
                                    rows
                                            + ": 20,000 cached keys, 19,637 of them packed, 0.10"
                                            + " B/URL of per-key objects after a checkpoint (the"
                                            + " most heap between two checkpoints: 1.93 B/URL in"
                                            + " the last interval and 2.18 in the last ten at"
                                            + " 100,000 records/s a subtask)"));
        }
        String sim = "docs/simulate-subtask-10m-expected-urls-session22.txt";
        if (hundred) {
            return smallKeys(
                    f,
                    new Figure(
                            2.88,
                            "docs/simulate-subtask-page-entries-session45.txt: largest"
                                    + " checkpoint 27,349,652 B at 9.5 M URLs, 100,000 keys of 100"
                                    + " URLs on average, a checkpoint every 1 M records, pages"
                                    + " stored Rice-coded and split past 1024, the larger of two"
                                    + " runs (2.90 split past 512,"
                                    + " docs/simulate-subtask-stored-rice-session44.txt; 2.99 stored"
                                    + " as on the heap,"
                                    + " docs/simulate-subtask-10m-fpp1e-4-journal-fixes-session33.txt;"
                                    + " 3.45 with the thirty-first session's defaults, 3.75 before"
                                    + " the compaction after checkpoints,"
                                    + " docs/simulate-subtask-10m-fpp1e-4-heap-session23.txt)"),
                    new Figure(
                            2.50,
                            "docs/simulate-subtask-page-entries-session45.txt: filter pages 2.50"
                                    + " B/URL, 100,000 keys of 100 URLs, pages split past 1024"
                                    + " (2.51 past 512 in the same file; the same with a first"
                                    + " class of 128, "
                                    + sim
                                    + ")"),
                    new Figure(
                            35,
                            "docs/simulate-subtask-page-entries-session45.txt: 100,000"
                                    + " cached keys, 99,682 of them packed, 0.35 B/URL of per-key"
                                    + " objects after a checkpoint (the same in"
                                    + " docs/simulate-subtask-10m-fpp1e-4-chunks-session27.txt,"
                                    + " 0.40 in "
                                    + sim
                                    + "; the most heap at any point of a checkpoint interval, its"
                                    + " flush included: 2.88 B/URL at 1,000 records/s a subtask,"
                                    + " docs/simulate-subtask-10m-fpp1e-4-due-packs-session28.txt;"
                                    + " 2.92 at 10,000, docs/simulate-subtask-session42.txt; 3.15"
                                    + " at 100,000, with 10 s checkpoints; counted at once, the"
                                    + " arena's compactions and growing tables included, 2.93"
                                    + " and 3.19,"
                                    + " docs/simulate-subtask-compaction-peak-session50.txt)"));
        }
        return smallKeys(
                f,
                new Figure(
                        2.57,
                        rows
                                + ": largest checkpoint"
                                + " 24,391,809 B at 9.5 M URLs, 20,000 keys of 500 URLs on average,"
                                + " a checkpoint every 1 M records, the larger of two runs (2.66"
                                + " before pages were stored Rice-coded and split past 1024,"
                                + " docs/simulate-subtask-10m-fpp1e-4-journal-fixes-session33.txt;"
                                + " 3.15 with the thirty-first session's defaults,"
                                + " docs/simulate-subtask-10m-fpp1e-4-journal-share-session31.txt;"
                                + " 3.16 in "
                                + sim
                                + ")"),
                new Figure(
                        2.42,
                        rows
                                + ": filter pages 2.42 B/URL,"
                                + " 20,000 keys of 500 URLs (2.43 split past 512, 2.47 with a"
                                + " first class of 128, "
                                + sim
                                + ")"),
                new Figure(
                        50,
                        rows
                                + ": 20,000 cached keys,"
                                + " 19,633 of them packed, 0.10 B/URL of per-key objects after a"
                                + " checkpoint (the most heap between two checkpoints: 2.79 B/URL"
                                + " in the last interval and 3.03 in the last ten at 100,000"
                                + " records/s a subtask)"));
    }

    /**
     * The figures of a simulation with small keys, which measures no local disk and no cluster
     * rate: those stay the {@code large} keys' run's.
     */
    private static Figures smallKeys(
            Figures large, Figure checkpoint, Figure pages, Figure perKey) {
        return new Figures(
                large.localBytesPerUrl(),
                checkpoint,
                pages,
                perKey,
                large.recordsPerSecondPerSlot());
    }

    /** The figures for a mode, store and rate; null where nothing was measured. */
    static Figures figures(DedupMode mode, ExactStoreType store, double rate) {
        return mode == DedupMode.EXACT && store == ExactStoreType.PAGES
                ? exactPagesFigures()
                : figures(mode, rate);
    }

    static Figures figures(DedupMode mode, double rate) {
        if (mode == DedupMode.EXACT && rate == 0.01) {
            return new Figures(
                    new Figure(
                            29.19,
                            "docs/scale-50m-exact-session8.txt: RocksDB 1,243,378,384 B at"
                                    + " 42,598,002 URLs, the largest per URL of the last 10 M"),
                    new Figure(
                            25.42,
                            "docs/scale-50m-exact-session8.txt: largest checkpoint 1,248,264,277"
                                    + " B at about 49.1 M URLs"),
                    new Figure(
                            1.64,
                            "docs/scale-50m-exact-session8.txt: Bloom pages 1.64 B per URL at"
                                    + " 50 M"),
                    PER_KEY,
                    new Figure(
                            35_324,
                            "docs/scale-50m-exact-session8.txt: 70,647 records/s on 2 slots at"
                                    + " 40-50 M URLs (165,019 at 1-10 M); the slower figure"));
        }
        if (mode == DedupMode.APPROXIMATE && rate == 0.01) {
            String run = "docs/scale-50m-approximate-fpp1e-2-session23.txt";
            return new Figures(
                    new Figure(
                            2.42,
                            run
                                    + ": RocksDB 107,943,267 B at 44,642,901 URLs, the largest per"
                                    + " URL of the last 10 M in three runs (1.77 and 1.64 in the"
                                    + " other two)"),
                    new Figure(
                            1.48,
                            "docs/scale-50m-approximate-page-entries-session45.txt: largest"
                                    + " checkpoint while the input flowed 70,749,515 B at about"
                                    + " 47.8 M URLs, pages stored Rice-coded and split past 1024"
                                    + " (1.51 split past 512 in the same file;"
                                    + " 1.58 stored as on the heap,"
                                    + " docs/scale-50m-approximate-journal-fixes-session33.txt;"
                                    + " 1.86 before the compaction after checkpoints, "
                                    + run
                                    + ")"),
                    new Figure(1.46, run + ": filter pages 1.46 B/URL at 50 M in all three runs"),
                    new Figure(
                            58,
                            run
                                    + ": 20,000 cached keys, 57-58 B each as the filter cache"
                                    + " counts them at the end of the run"),
                    new Figure(
                            480_411,
                            run
                                    + ": 960,823 records/s on 2 slots at 40-50 M URLs, the slowest"
                                    + " of three runs (949,112 over the whole run)"));
        }
        if (mode == DedupMode.APPROXIMATE && rate == 0.0001) {
            return new Figures(
                    new Figure(
                            2.42,
                            "docs/scale-50m-approximate-fpp1e-4-session22.txt: RocksDB"
                                    + " 113,037,596 B at 46,679,545 URLs, the largest per URL of"
                                    + " the last 10 M in three runs with a first class of 512"
                                    + " (2.40 and 2.38 in the other two; 2.52-3.73 with 128 in"
                                    + " the thirteenth session)"),
                    new Figure(
                            2.25,
                            "docs/scale-50m-approximate-page-entries-session45.txt: largest"
                                    + " checkpoint while the input flowed 105,367,570 B at about"
                                    + " 46.9 M URLs, pages stored Rice-coded and split past 1024,"
                                    + " the larger of two runs (2.27-2.28 split past 512 in the"
                                    + " same file; 2.35 stored as on the heap,"
                                    + " docs/scale-50m-approximate-journal-fixes-session33.txt;"
                                    + " 2.67 before the compaction after checkpoints,"
                                    + " docs/scale-50m-approximate-fpp1e-4-session22.txt)"),
                    new Figure(
                            2.22,
                            "docs/scale-50m-approximate-fpp1e-4-session22.txt: filter pages"
                                    + " 2.22 B/URL at 50 M in all three runs (2.36 with 128)"),
                    new Figure(
                            66,
                            "docs/scale-50m-approximate-fpp1e-4-session22.txt: 20,000 cached"
                                    + " keys, 64-66 B each as the filter cache counts them at the"
                                    + " end of the run, most of them packed in the arena"
                                    + " (FilterCacheFootprintTest: within 10% of JOL; 72 in the"
                                    + " seventeenth session's run, 426 before keys were packed)"),
                    new Figure(
                            424_098,
                            "docs/scale-50m-approximate-fpp1e-4-session22.txt: 848,197"
                                    + " records/s on 2 slots at 40-50 M URLs, the slowest of"
                                    + " three runs (866,707 over the whole run)"));
        }
        if (mode == DedupMode.APPROXIMATE && rate == 1e-9) {
            String run = "docs/scale-50m-approximate-fpp1e-9-session23.txt";
            return new Figures(
                    new Figure(
                            4.56,
                            run
                                    + ": RocksDB 199,305,299 B at 43,686,457 URLs, the largest per"
                                    + " URL of the last 10 M in two runs (4.48 in the other; 9.61"
                                    + " with the Bloom chain: docs/scale-50m-approximate-fpp1e-9.txt)"),
                    new Figure(
                            5.05,
                            run
                                    + ": largest checkpoint while the input flowed 235,817,971 B at"
                                    + " about 46.7 M URLs, the larger of two runs (4.99; 7.56 with"
                                    + " the Bloom chain)"),
                    new Figure(
                            4.35,
                            run
                                    + ": filter pages 4.35 B/URL at 50 M in both runs (4.47 with"
                                    + " the Bloom chain)"),
                    new Figure(
                            108,
                            run
                                    + ": 20,000 cached keys, 102 and 108 B each as the filter cache"
                                    + " counts them at the end of the run (406 with the Bloom"
                                    + " chain)"),
                    new Figure(
                            368_747,
                            run
                                    + ": 737,494 records/s on 2 slots at 40-50 M URLs, the slower"
                                    + " of two runs (797,808 over the whole run; 137,749 a slot"
                                    + " with the Bloom chain)"));
        }
        return null;
    }

    /** The plan, as lines of text. */
    static List<String> plan(
            long urls,
            DedupMode mode,
            ExactStoreType store,
            double rate,
            long domains,
            long inputRate,
            long slotHeap,
            long slotDisk,
            double restoreMbPerS) {
        boolean pages = mode == DedupMode.EXACT && store == ExactStoreType.PAGES;
        Figures f = figures(mode, store, rate, (double) urls / Math.max(1, domains));
        if (f == null) {
            throw new IllegalArgumentException(
                    String.format(
                            Locale.ROOT,
                            "Nothing was measured for %s mode at rate %s; measured: exact at"
                                    + " 0.01, approximate at 0.01, 0.0001 and 1e-9. Measure with"
                                    + " scripts/bench --firstseen.dedup.mode %s"
                                    + " --firstseen.dedup.bloom.false-positive-rate %s",
                            mode.name().toLowerCase(Locale.ROOT),
                            rate,
                            mode,
                            rate));
        }
        double local = f.localBytesPerUrl().value() * urls;
        double checkpoint = f.checkpointBytesPerUrl().value() * urls;
        double heap = f.heapBytesPerUrl().value() * urls + f.heapBytesPerKey().value() * domains;
        long byHeap = ceil(heap / slotHeap);
        long byDisk = ceil(local / slotDisk);
        long byRate =
                inputRate <= 0 || f.recordsPerSecondPerSlot() == null
                        ? 1
                        : ceil((double) inputRate / f.recordsPerSecondPerSlot().value());
        long slots = Math.max(1, Math.max(byHeap, Math.max(byDisk, byRate)));
        // An incremental restore downloads every SST file of the subtask before it starts.
        double restoreSeconds = checkpoint / slots / (restoreMbPerS * 1e6);

        List<String> out = new ArrayList<>();
        out.add(
                String.format(
                        Locale.ROOT,
                        "FirstSeen sizing: %s URLs, %s, %s keys",
                        count(urls),
                        pages
                                ? "exact mode with dedup.exact.store PAGES"
                                : mode.name().toLowerCase(Locale.ROOT) + " mode at rate " + rate,
                        count(domains)));
        out.add("");
        out.add(String.format(Locale.ROOT, "%-26s %12s %12s  %s", "", "per URL", "total", "from"));
        row(out, "RocksDB on local disk", f.localBytesPerUrl(), local);
        row(out, "checkpoint (full size)", f.checkpointBytesPerUrl(), checkpoint);
        row(
                out,
                pages
                        ? "fingerprint pages (heap)"
                        : mode == DedupMode.APPROXIMATE
                                ? "filter pages (task heap)"
                                : "Bloom pages (task heap)",
                f.heapBytesPerUrl(),
                f.heapBytesPerUrl().value() * urls);
        out.add(
                String.format(
                        Locale.ROOT,
                        "%-26s %10.0f/key %12s  %s",
                        "per-key objects (heap)",
                        f.heapBytesPerKey().value(),
                        bytes(f.heapBytesPerKey().value() * domains),
                        f.heapBytesPerKey().source()));
        out.add("");
        out.add(
                String.format(
                        Locale.ROOT,
                        "slots: %d (heap %d at %s of page cache each, disk %d at %s each, input"
                                + " rate %s)",
                        slots,
                        byHeap,
                        bytes(slotHeap),
                        byDisk,
                        bytes(slotDisk),
                        inputRate <= 0
                                ? "not given"
                                : f.recordsPerSecondPerSlot() == null
                                        ? "not measured for these settings"
                                        : byRate
                                                + " at "
                                                + count((long) f.recordsPerSecondPerSlot().value())
                                                + " records/s each, "
                                                + f.recordsPerSecondPerSlot().source()));
        out.add(
                String.format(
                        Locale.ROOT,
                        "per slot: dedup.bloom.cache-size %s, task heap %s (cache plus 512 mb for"
                                + " the rest of the task; with the cache size unset, a task"
                                + " heap of %s, of which the cache takes"
                                + " dedup.bloom.cache-heap-fraction %s), managed memory 1 gb (6"
                                + " gb measured no faster at 50 M URLs:"
                                + " docs/scale-50m-managed-6g.txt), local disk %s",
                        bytes(heap / slots),
                        bytes(heap / slots + (512L << 20)),
                        bytes((long) (heap / slots / DEFAULT_FILTER_CACHE_HEAP_FRACTION)),
                        DEFAULT_FILTER_CACHE_HEAP_FRACTION,
                        bytes(local / slots)));
        out.add(
                String.format(
                        Locale.ROOT,
                        "restore: about %.0f s per subtask to download its %s of checkpoint at %.0f"
                                + " MB/s (not measured at this size; filter pages then load on"
                                + " first use, and a key's page journal is inserted again then,"
                                + " at most 49 ms a key: docs/jmh-page-journal-v3.txt)",
                        restoreSeconds,
                        bytes(checkpoint / slots),
                        restoreMbPerS));
        if (mode == DedupMode.APPROXIMATE) {
            out.add(
                    String.format(
                            Locale.ROOT,
                            "dropped as false positives: expected at most %s new URLs (rate times URLs);"
                                    + " 0.25-0.46 of that bound in the forty-ninth session's runs"
                                    + " (docs/scale-50m-approximate-expected-false-positives-session49.txt:"
                                    + " 0.46 at 50 M and 1e-4); a running job's gauge"
                                    + " expectedFalsePositives says how many it expects it dropped",
                            count(Math.round(rate * urls))));
        }
        return out;
    }

    private static void row(List<String> out, String name, Figure f, double total) {
        out.add(
                String.format(
                        Locale.ROOT,
                        "%-26s %10.2f B %12s  %s",
                        name,
                        f.value(),
                        bytes(total),
                        f.source()));
    }

    private static long ceil(double x) {
        return (long) Math.ceil(x);
    }

    static String bytes(double b) {
        String[] units = {"B", "KB", "MB", "GB", "TB", "PB"};
        int u = 0;
        while (b >= 1000 && u < units.length - 1) {
            b /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, u == 0 ? "%.0f %s" : "%.1f %s", b, units[u]);
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    public static void main(String[] argv) {
        ToolArgs args = new ToolArgs(argv, USAGE);
        long urls = (long) Double.parseDouble(args.required("urls"));
        DedupMode mode = DedupMode.valueOf(args.get("mode", "exact").toUpperCase(Locale.ROOT));
        // The job's default store (AUTO) is pages unless a job-wide time rule needs entries.
        ExactStoreType store =
                ExactStoreType.valueOf(args.get("store", "pages").toUpperCase(Locale.ROOT))
                        .resolve(false, 64);
        double rate = Double.parseDouble(args.get("rate", "0.01"));
        long domains = (long) Double.parseDouble(args.get("domains", "1e6"));
        long inputRate = (long) Double.parseDouble(args.get("input-rate", "0"));
        long slotHeap =
                org.apache.flink.configuration.MemorySize.parse(args.get("slot-heap", "2g"))
                        .getBytes();
        long slotDisk =
                org.apache.flink.configuration.MemorySize.parse(args.get("slot-disk", "200g"))
                        .getBytes();
        double restore = Double.parseDouble(args.get("restore-mb-per-s", "200"));
        PrintStream out = System.out;
        try {
            plan(urls, mode, store, rate, domains, inputRate, slotHeap, slotDisk, restore)
                    .forEach(out::println);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        }
    }
}
