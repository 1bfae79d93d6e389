package dev.firstseen.dedup;

import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Settings of {@link DedupOperator}. {@link #guarded} are the job settings whose change would
 * silently fork the seen-set (canonicalization profile, key mode, dedup mode, ...); the operator
 * stores them in its state and checks them on restore ({@link SettingsGuard}).
 *
 * @param mode exact (Bloom filter plus exact store) or approximate (filter only)
 * @param expectedUrlsPerKey URLs a new key's first filter holds
 * @param falsePositiveRate target rate of the filter, see {@code dedup.bloom.false-positive-rate}
 * @param filterCacheBytes heap budget of the filter cache per subtask, in bytes; 0 for {@code
 *     filterCacheHeapFraction} of the slot's share of the task heap
 * @param filterCacheHeapFraction share of a slot's task heap the filter cache takes when {@code
 *     filterCacheBytes} is 0
 * @param recentCacheEntries L1 entries per subtask; 0 disables L1
 * @param guarded settings checked on restore; the dedup mode is added to them
 * @param allowGuardedChange restore even if a guarded setting changed
 * @param fingerprints the fingerprint function of a job without state (a new secret key); a
 *     restored job uses the one its state records instead
 * @param revisitAfterMillis emit a seen URL again once this long passed since it was last emitted
 *     (exact mode); 0 for never
 * @param forgetAfterMillis forget a URL not emitted for this long; 0 for never. In approximate mode
 *     each key's filter is kept in generations of {@code forgetAfterMillis / forgetGenerations}
 *     (see {@link #generationMillis})
 * @param approximateFilter the filter of keys created in approximate mode
 * @param rebuildStep exact-store entries a filter rebuild reads per record at most; keys with at
 *     most this many URLs are rebuilt at once
 * @param compactBeforeCheckpoint compact the filter pages' column family before each checkpoint
 *     (RocksDB only), see {@code dedup.rocksdb.compact-before-checkpoint}
 * @param compactAfterCheckpoint write keys whose page journal is full whole right after a
 *     checkpoint instead of at it, then compact the filter's column families in a background thread
 *     (RocksDB only), see {@code dedup.rocksdb.compact-after-checkpoint}
 * @param exactStore how exact mode keeps the seen-set of keys created from now on, never {@link
 *     ExactStoreType#AUTO} (the builder resolves it); keys keep the store they were created with
 * @param exactPageEntries entries per page past which exact mode's fingerprint pages split
 * @param approximatePageEntries entries per page past which approximate mode's fingerprint pages
 *     split
 * @param convertExactKeys in approximate mode with {@link ApproximateFilter#FINGERPRINTS}, turn
 *     exact mode's keys into approximate mode's filter: all of them as the operator opens after a
 *     restore of state written in exact mode, and a pages key left exact when it is loaded
 * @param pageJournalShare the size of a fingerprint filter's page journal, as a share of its pages'
 *     bytes, past which a checkpoint writes its changed pages whole; 0 writes them whole every time
 * @param packMaxPages the most page slots of a key the filter cache packs into its arena at a
 *     checkpoint ({@link PackedFilter}); 0 packs none
 * @param forgetGenerations approximate mode with {@code forgetAfterMillis}: generations per {@code
 *     forgetAfterMillis}, see {@code dedup.approximate.forget-generations}
 */
public record DedupConfig(
        DedupMode mode,
        long expectedUrlsPerKey,
        double falsePositiveRate,
        long filterCacheBytes,
        double filterCacheHeapFraction,
        int recentCacheEntries,
        SortedMap<String, String> guarded,
        boolean allowGuardedChange,
        FingerprintFunction fingerprints,
        long revisitAfterMillis,
        long forgetAfterMillis,
        ApproximateFilter approximateFilter,
        long rebuildStep,
        boolean compactBeforeCheckpoint,
        boolean compactAfterCheckpoint,
        ExactStoreType exactStore,
        int exactPageEntries,
        int approximatePageEntries,
        boolean convertExactKeys,
        double pageJournalShare,
        int packMaxPages,
        int forgetGenerations)
        implements Serializable {

    public DedupConfig {
        TreeMap<String, String> g = new TreeMap<>(guarded);
        g.put(SettingsGuard.DEDUP_MODE, mode.name());
        guarded = Collections.unmodifiableSortedMap(g);
    }

    /**
     * Default of {@code dedup.exact.page-entries}: a quarter of approximate mode's pages. Each
     * checkpoint writes a dirty page whole, and at 200 M URLs 128 kept 1.42× the late rate of 512
     * (docs/design/state.md, Exact mode's fingerprint pages).
     */
    public static final int DEFAULT_EXACT_PAGE_ENTRIES = 128;

    /**
     * Default of {@code dedup.bloom.expected-urls-per-key}: 512 for approximate mode's fingerprint
     * filter, 128 for exact mode and the Bloom chain. A fingerprint filter's class 0 of 512 URLs
     * holds, at the rate share p/2, URLs that with 128 would have gone to class 1 at p/6, and every
     * later class has one step less of the growth premium: keys of more than a few hundred URLs pay
     * fewer bits and probe fewer classes, keys of fewer than 128 pay two bits a URL more. Measured
     * side by side in the twenty-second session (docs/design/state.md, *Approximate mode's
     * filter*), 512 held the same or fewer bytes per URL on every stream and dropped fewer URLs;
     * the default was 128 before.
     */
    public static long defaultExpectedUrlsPerKey(DedupMode mode, ApproximateFilter filter) {
        return mode == DedupMode.APPROXIMATE && filter == ApproximateFilter.FINGERPRINTS
                ? 512
                : 128;
    }

    /**
     * Default of {@code dedup.rocksdb.compact-after-checkpoint}: on in approximate mode, whose
     * filter is a few bytes a URL; off in exact mode, whose pages are the seen-set and would be
     * compacted whole every interval.
     */
    public static boolean defaultCompactAfterCheckpoint(DedupMode mode) {
        return mode == DedupMode.APPROXIMATE;
    }

    /**
     * Default of {@code dedup.approximate.page-entries}: 1024 since the forty-fifth session (512
     * before), which on the 50 M scale stream checkpointed 0.02-0.03 bytes per URL less at 1e-4 and
     * at 1% and ran no slower (docs/design/state.md, Approximate mode's filter, Page size).
     */
    public static final int DEFAULT_APPROXIMATE_PAGE_ENTRIES = 1024;

    /**
     * Default of {@code dedup.bloom.cache-heap-fraction}: as much of the task heap as Flink's
     * default {@code taskmanager.memory.managed.fraction} gives RocksDB of the TaskManager, leaving
     * the rest for the Kafka clients' buffers and the records in flight.
     */
    public static final double DEFAULT_FILTER_CACHE_HEAP_FRACTION = 0.4;

    /**
     * Default of {@code dedup.page-journal.max-share} in exact mode: a journal adds at most 0.75 to
     * its key's state, 0.47 on average (each bound is drawn from 1/4 to 1 of this); at about 7
     * bytes a page entry and a journal entry, a key's pages are then written whole about once per
     * half of growth. Chosen by a sweep of 50 M-URL runs (docs/design/state.md, "Page journal").
     */
    public static final double DEFAULT_PAGE_JOURNAL_SHARE = 0.75;

    /**
     * Default of {@code dedup.page-journal.max-share} in approximate mode. With {@code
     * dedup.rocksdb.compact-after-checkpoint} (its default there) a key whose journal is full is
     * written whole after the checkpoint and compacted before the next, so what a journal costs is
     * its own bytes in every checkpoint: an element coding n of a class's N entries spends about
     * log2(N/n) bits an entry more than the class's pages, and a header (about 12 bytes for the one
     * fingerprint of a small key). At 0.05 a checkpoint holds little more than the last interval's
     * elements: in the subtask simulation (100 URLs a key) 2.88 and 2.99 B/URL at 100,000 and 1 M
     * records an interval against 3.14 and 3.23 at 0.25 and 2.91 and 3.01 at 0.1, on the 50 M
     * stream 1.58 and 2.35 at 1% and 1e-4 against 1.61 and 2.38 at 0.25 (docs/design/state.md,
     * "Checkpoints and compaction"). Until the thirty-third session a batch between checkpoints
     * that passed its bound was written whole at once, and a low share left superseded pages in
     * checkpoints instead (0.25 was the default then).
     */
    public static final double DEFAULT_APPROXIMATE_PAGE_JOURNAL_SHARE = 0.05;

    /** Default of {@code dedup.page-journal.max-share} for the mode. */
    public static double defaultPageJournalShare(DedupMode mode) {
        return mode == DedupMode.APPROXIMATE
                ? DEFAULT_APPROXIMATE_PAGE_JOURNAL_SHARE
                : DEFAULT_PAGE_JOURNAL_SHARE;
    }

    /**
     * Default and largest value of {@code dedup.bloom.cache-pack-max-pages}: see {@link
     * PackedFilter#MAX_SLOTS}.
     */
    public static final int DEFAULT_PACK_MAX_PAGES = PackedFilter.MAX_SLOTS;

    /**
     * Default of {@code dedup.approximate.forget-generations}: a URL is forgotten from {@code
     * forget-after} to a quarter more after it was emitted, as exact mode sweeps a key at most
     * every quarter of it, and each of the five generations alive at once gets a fifth of the rate:
     * log2(5), 2.3 bits a URL more than without expiry.
     */
    public static final int DEFAULT_FORGET_GENERATIONS = 4;

    /**
     * Approximate mode with {@code dedup.forget-after}: the length of a generation, the time over
     * which the URLs a key emits go to the same classes and are later forgotten together; 0 when
     * the job keeps no generations. A generation that ended {@code forget-after} ago is forgotten,
     * so a URL is forgotten between {@code forget-after} and that plus a generation after it was
     * emitted.
     */
    public long generationMillis() {
        if (mode != DedupMode.APPROXIMATE
                || forgetAfterMillis <= 0
                || approximateFilter != ApproximateFilter.FINGERPRINTS) {
            return 0;
        }
        return Math.max(1, (forgetAfterMillis + forgetGenerations - 1) / forgetGenerations);
    }

    /**
     * The rate a generation's classes share ({@link #generationMillis}): at most {@code
     * forgetGenerations + 1} generations are alive at once (a generation lives {@code forget-after}
     * past its end), so the key's rate stays within the target; the target itself without
     * generations.
     */
    public double generationFalsePositiveRate() {
        return generationMillis() > 0
                ? falsePositiveRate / (forgetGenerations + 1)
                : falsePositiveRate;
    }

    /** Default of {@code dedup.bloom.rebuild-step}. */
    public static final long DEFAULT_REBUILD_STEP = 4096;

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Why a key's first Bloom filter cannot be built with these settings, or null if it can. Every
     * later layer degrades instead of failing (see {@code FilterMeta.grow}), but the first one is
     * built for every new key, so settings it cannot honour must be refused at start.
     */
    public String sizingProblem() {
        try {
            newFilter();
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** The filter of a key without one. */
    FilterMeta newFilter() {
        if (mode == DedupMode.EXACT) {
            return exactStore == ExactStoreType.PAGES
                    ? FilterMeta.createExactFingerprints(expectedUrlsPerKey)
                            .splitPagesPast(exactPageEntries)
                    : FilterMeta.createSingle(expectedUrlsPerKey, falsePositiveRate);
        }
        return approximateFilter == ApproximateFilter.BLOOM
                ? FilterMeta.create(expectedUrlsPerKey, falsePositiveRate)
                : FilterMeta.createFingerprints(expectedUrlsPerKey, generationFalsePositiveRate())
                        .splitPagesPast(approximatePageEntries);
    }

    /**
     * Whether a key loaded in exact mode's fingerprint pages becomes approximate mode's filter: in
     * approximate mode with {@link ApproximateFilter#FINGERPRINTS}, whose prefixes are the top bits
     * of the 63 those pages keep (a Bloom filter's bits need the whole fingerprint), if {@link
     * #convertExactKeys}.
     */
    boolean convertsExactKeys() {
        return convertExactKeys
                && mode == DedupMode.APPROXIMATE
                && approximateFilter == ApproximateFilter.FINGERPRINTS;
    }

    /**
     * Whether a record's own {@code revisit_after} can be honoured: in exact mode, where an entries
     * key keeps every URL's time and a pages key the times of the URLs such records name.
     */
    public boolean acceptsRecordRevisits() {
        return mode == DedupMode.EXACT;
    }

    /** Whether {@code forget} and {@code forget-key} can be applied. */
    public boolean canDelete() {
        return mode == DedupMode.EXACT || approximateFilter == ApproximateFilter.FINGERPRINTS;
    }

    /** A builder with the defaults of the job's options. */
    public static final class Builder {
        private DedupMode mode = DedupMode.EXACT;
        private long expectedUrlsPerKey; // 0: the default of the mode and filter
        private double falsePositiveRate = 0.01;
        private long filterCacheBytes = 64L << 20;
        private double filterCacheHeapFraction = DEFAULT_FILTER_CACHE_HEAP_FRACTION;
        private int recentCacheEntries = 65536;
        private final SortedMap<String, String> guarded = new TreeMap<>();
        private boolean allowGuardedChange;
        private FingerprintFunction fingerprints;
        private int fingerprintBits = 64;
        private long revisitAfterMillis;
        private long forgetAfterMillis;
        private ApproximateFilter approximateFilter = ApproximateFilter.FINGERPRINTS;
        private long rebuildStep = DEFAULT_REBUILD_STEP;
        private boolean compactBeforeCheckpoint;
        private Boolean compactAfterCheckpoint; // null: the default of the mode
        private ExactStoreType exactStore = ExactStoreType.AUTO;
        private int exactPageEntries = DEFAULT_EXACT_PAGE_ENTRIES;
        private int approximatePageEntries = DEFAULT_APPROXIMATE_PAGE_ENTRIES;
        private boolean convertExactKeys = true;
        private Double pageJournalShare; // null: the default of the mode
        private int packMaxPages = DEFAULT_PACK_MAX_PAGES;
        private int forgetGenerations = DEFAULT_FORGET_GENERATIONS;

        /** See {@link DedupConfig#forgetGenerations}. */
        public Builder forgetGenerations(int n) {
            this.forgetGenerations = n;
            return this;
        }

        /** See {@link DedupConfig#packMaxPages}. */
        public Builder packMaxPages(int pages) {
            this.packMaxPages = pages;
            return this;
        }

        /**
         * See {@link DedupConfig#pageJournalShare}; by default 0.75 in exact mode and 0.05 in
         * approximate mode, as the job's option.
         */
        public Builder pageJournalShare(double share) {
            this.pageJournalShare = share;
            return this;
        }

        /** See {@link DedupConfig#exactPageEntries}. */
        public Builder exactPageEntries(int entries) {
            this.exactPageEntries = entries;
            return this;
        }

        /** See {@link DedupConfig#approximatePageEntries}. */
        public Builder approximatePageEntries(int entries) {
            this.approximatePageEntries = entries;
            return this;
        }

        /** See {@link DedupConfig#convertExactKeys}; true by default, as the job's option. */
        public Builder convertExactKeys(boolean convert) {
            this.convertExactKeys = convert;
            return this;
        }

        /** See {@link DedupConfig#exactStore}; {@link ExactStoreType#AUTO} by default. */
        public Builder exactStore(ExactStoreType store) {
            this.exactStore = store;
            return this;
        }

        /** See {@link DedupConfig#compactBeforeCheckpoint}. */
        public Builder compactBeforeCheckpoint(boolean compact) {
            this.compactBeforeCheckpoint = compact;
            return this;
        }

        /**
         * See {@link DedupConfig#compactAfterCheckpoint}; by default true in approximate mode, as
         * the job's option.
         */
        public Builder compactAfterCheckpoint(boolean compact) {
            this.compactAfterCheckpoint = compact;
            return this;
        }

        /** See {@link DedupConfig#rebuildStep}; at least 1. */
        public Builder rebuildStep(long entries) {
            this.rebuildStep = entries;
            return this;
        }

        public Builder approximateFilter(ApproximateFilter f) {
            this.approximateFilter = f;
            return this;
        }

        public Builder mode(DedupMode m) {
            this.mode = m;
            return this;
        }

        /** See {@link DedupConfig#defaultExpectedUrlsPerKey} for the default. */
        public Builder expectedUrlsPerKey(long n) {
            this.expectedUrlsPerKey = n;
            return this;
        }

        public Builder falsePositiveRate(double p) {
            this.falsePositiveRate = p;
            return this;
        }

        /** See {@link DedupConfig#filterCacheBytes}; 64 MB in the builder, 0 for a heap share. */
        public Builder filterCacheBytes(long bytes) {
            this.filterCacheBytes = bytes;
            return this;
        }

        /** See {@link DedupConfig#filterCacheHeapFraction}. */
        public Builder filterCacheHeapFraction(double fraction) {
            this.filterCacheHeapFraction = fraction;
            return this;
        }

        public Builder recentCacheEntries(int n) {
            this.recentCacheEntries = n;
            return this;
        }

        public Builder guarded(Map<String, String> settings) {
            this.guarded.putAll(settings);
            return this;
        }

        public Builder guarded(String key, String value) {
            this.guarded.put(key, value);
            return this;
        }

        public Builder allowGuardedChange(boolean allow) {
            this.allowGuardedChange = allow;
            return this;
        }

        /** 0 (the default) never forgets. */
        public Builder forgetAfterMillis(long millis) {
            this.forgetAfterMillis = millis;
            return this;
        }

        /** 0 (the default) never revisits. */
        public Builder revisitAfterMillis(long millis) {
            this.revisitAfterMillis = millis;
            return this;
        }

        /**
         * Default: SipHash-2-4 with {@link #fingerprintBits} of output under a new random key,
         * drawn when {@link #build()} runs.
         */
        public Builder fingerprints(FingerprintFunction f) {
            this.fingerprints = f;
            return this;
        }

        /** 64 (the default) or 128; ignored if {@link #fingerprints} is given. */
        public Builder fingerprintBits(int bits) {
            this.fingerprintBits = bits;
            return this;
        }

        public DedupConfig build() {
            FingerprintFunction f =
                    fingerprints != null
                            ? fingerprints
                            : FingerprintFunction.newSecret(fingerprintBits);
            return new DedupConfig(
                    mode,
                    expectedUrlsPerKey > 0
                            ? expectedUrlsPerKey
                            : defaultExpectedUrlsPerKey(mode, approximateFilter),
                    falsePositiveRate,
                    filterCacheBytes,
                    filterCacheHeapFraction,
                    recentCacheEntries,
                    guarded,
                    allowGuardedChange,
                    f,
                    revisitAfterMillis,
                    forgetAfterMillis,
                    approximateFilter,
                    Math.max(1, rebuildStep),
                    compactBeforeCheckpoint,
                    compactAfterCheckpoint != null
                            ? compactAfterCheckpoint
                            : defaultCompactAfterCheckpoint(mode),
                    exactStore.resolve(revisitAfterMillis > 0 || forgetAfterMillis > 0, f.bits()),
                    exactPageEntries,
                    approximatePageEntries,
                    convertExactKeys,
                    pageJournalShare != null ? pageJournalShare : defaultPageJournalShare(mode),
                    packMaxPages,
                    forgetGenerations);
        }
    }
}
