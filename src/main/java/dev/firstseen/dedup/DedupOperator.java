package dev.firstseen.dedup;

import dev.firstseen.metrics.FirstSeenMetrics;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.Op;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.accumulators.DoubleCounter;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.accumulators.LongMaximum;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackend;
import org.apache.flink.state.rocksdb.RocksDBKeyedStateBackend;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage "dedup": emits each canonical URL the first time its key has seen it, and never again. Runs
 * after {@code keyBy(partition key)}.
 *
 * <p>Contract: in {@link DedupMode#EXACT} a URL is emitted if and only if its fingerprint was not
 * in the key's state — no false positives, no false negatives, across failures, restores and
 * rescaling, because every decision rests on keyed state that Flink checkpoints and redistributes
 * by key group. In {@link DedupMode#APPROXIMATE} a new URL is dropped with at most the configured
 * false-positive probability, and nothing seen is ever emitted again.
 */
public final class DedupOperator extends AbstractStreamOperator<FrontierRecord>
        implements OneInputStreamOperator<CanonicalUrl, FrontierRecord>,
                Triggerable<Object, VoidNamespace> {
    private static final long serialVersionUID = 1L;

    /*
     * Design. Three levels answer "seen before?" for a URL of key K:
     *
     *  L1  RecentFingerprintCache: per instance, heap, never checkpointed (see its contract).
     *  L2  a blocked Bloom filter per key. Its bits live in keyed state as pages in
     *      MapState<Integer, byte[]> ("bloom-pages"), its geometry in ValueState<FilterMeta>
     *      ("bloom-meta"). Serializing a whole filter into a ValueState per record would cost
     *      O(filter) per URL; a page is 1 KiB at most and a URL touches one page per layer.
     *      Pages are cached on the heap per key (LRU, byte budget) and changed there; dirty pages
     *      go back to state when the key is evicted and in prepareSnapshotPreBarrier, which runs
     *      before the barrier is forwarded, so the checkpoint holds every bit set before it
     *      (SubtaskCheckpointCoordinatorImpl#checkpointState; Flink SQL's mini-batch operators flush
     *      the same way). Writing under another key means setCurrentKey(K') and back.
     *  L3  ExactStore: the exact set in keyed MapState, fingerprint to last-emitted time.
     *
     * Growth. In exact mode a key's filter is one layer; when it is full it is rebuilt for twice
     * the key's URLs from L3 (one prefix scan of the key's entries; the old pages are deleted from
     * state first, the new ones written at the next flush like any dirty page). The filter stays
     * between half full and full, sized so that its mean rate over that stretch is the target (a
     * false positive here costs one read, not a lost URL), and a probe touches one page. Rebuilding
     * reads each URL about twice over the key's life. Approximate mode has no L3 to rebuild from
     * and grows a scalable chain of layers (BloomMath), which keeps the compound rate under the
     * target.
     *
     * A "definitely new" from L2 costs no RocksDB read: the URL is new, its fingerprint is
     * written. Only a "maybe" reads L3. The Bloom filter is therefore never trusted for "seen"
     * in exact mode, only for "new", and it has no false negatives because it is always a superset
     * of L3 in every checkpoint: both are written for the same record before the next barrier.
     *
     * Fingerprint pages (dedup.exact.store: PAGES, which its default AUTO picks unless a job-wide
     * time rule needs every URL's time). A key created under that setting has no L3 entries, but
     * for the times of URLs whose records carry their own revisit_after, and no Bloom filter: its
     * "filter" is one fingerprint class of 63-bit prefixes that never fills
     * (FilterMeta.EXACT_FINGERPRINTS), so a page lookup is the exact answer and L2
     * and L3 are one. The bench profile put a fifth of exact mode's CPU in L3's writes and reads
     * (the memtable insert of every new URL above all), which this replaces with a page rewrite
     * on the heap, flushed per checkpoint like any filter page. Each key keeps the layout it was
     * created with, decided by its metadata's strategy, so a job may switch the setting either
     * way on restore without a URL changing its answer.
     *
     * Page journal (dedup.page-journal.max-share). A busy key's pages are nearly all dirty again
     * by the next checkpoint, so writing them whole at every checkpoint wrote a large share of the
     * seen-set each time, and the checkpoint carried the superseded versions until compaction. A
     * fingerprint filter's inserts since its last whole write instead go to a keyed list state,
     * the bits of each that an insert reads, each class's sorted and coded as gaps, appended with
     * RocksDB's merge (no read), while its stored metadata and pages stay those of the whole write
     * and the metadata says a journal follows. A key read from state inserts the journal again:
     * inserts into fingerprint pages are deterministic given the metadata and pages they meet
     * (splits and growth included), and within a class do not depend on their order, so the heap
     * copy's sets come back exactly. A removal, an eviction or a journal past its share writes the
     * pages whole and clears the journal.
     */

    private final DedupConfig config;

    private transient MapState<Integer, byte[]> pages;
    private transient ValueState<FilterMeta> metaState;
    private transient ListState<byte[]> journal;
    private transient ExactStore exact;
    private transient boolean loggedConversion;

    /**
     * URLs of converted exact keys that went in by merges into a class already written ({@link
     * KeyFilter.ClassBuilder}).
     */
    private transient long urlsConvertedByMerges;

    /**
     * The most prefixes a converted key's class is built from whole ({@link KeyFilter#buildLimit}).
     */
    private transient int conversionLimit;

    private transient boolean restoredFromExact;
    private transient ListState<String> settingsState;
    private transient ListState<String> fingerprintState;
    private transient FingerprintFunction fingerprints;

    private transient FilterCache cache;
    private transient FilterCacheBudget cacheBudget;
    private transient RecentFingerprintCache recent;
    private transient CountingPageLoader loader;
    private transient DedupMetrics metrics;
    private transient SeenSetOps ops;
    private transient RevisitRule revisit;
    private transient long forgetAfter;

    /**
     * Approximate mode's {@code dedup.forget-after}: the length of a generation of a key's filter
     * ({@link DedupConfig#generationMillis}); 0 without.
     */
    private transient long generationMillis;

    /** Whether a key that cannot expire in generations was met yet (logged once). */
    private transient boolean warnedNoGenerations;

    private transient ValueState<Long> lastSweep;
    private transient ValueState<Long> sweepTimer;
    private transient InternalTimerService<VoidNamespace> sweepTimers;
    private transient long lastFlushPages;
    private transient long lastCompactionMillis;

    /** Pages were written to state since the last compaction before a checkpoint. */
    private transient boolean pagesWrittenSinceCompaction;

    /* dedup.rocksdb.compact-after-checkpoint: the checkpoint's flush is under way (keys whose
    journal is full are journaled all the same, KeyFilter#writeWholeSoon), and the background
    compaction after the checkpoint. */
    private transient boolean checkpointFlush;
    /* The RocksDB backend if dedup.rocksdb.compact-after-checkpoint is on, else null: the heap
    backend's snapshots hold no superseded versions. */
    private transient RocksDBKeyedStateBackend<?> afterCheckpoint;

    /**
     * Pages a record writes whole at most after a checkpoint
     * (dedup.rocksdb.compact-after-checkpoint) before it is processed, at least one key's. Written
     * all by one record, the keys whose journal passed its bound at the checkpoint made it the
     * longest record of the 50 M scale runs (207-299 ms at a journal share of 0.25; 56-145 ms
     * spread). 256 pages are about 0.3 MB at 1e-4; the 50 M runs' roughly 13,000 such pages a
     * subtask an interval take its first fifty or so records.
     */
    static final int WHOLE_AFTER_CHECKPOINT_PAGES_PER_RECORD = 256;

    /* A checkpoint's flush ran and writeWholeAfterCheckpoint has not finished yet. */
    private transient boolean afterCheckpointDue;

    /** {@link #WHOLE_AFTER_CHECKPOINT_PAGES_PER_RECORD}, or less in tests. */
    private int wholePagesPerRecord = WHOLE_AFTER_CHECKPOINT_PAGES_PER_RECORD;

    /** Whether a record has begun the whole writes after the last checkpoint. */
    private transient boolean afterCheckpointBegun;

    private transient ExecutorService compactor;
    private transient Future<?> compaction;
    private transient long keysWrittenAfterCheckpoint;
    private transient long compactionsAfterCheckpoint;
    /* Compactions asked for since the running one began; 0 when none runs. */
    private transient AtomicInteger compactionRequests;
    private transient volatile long lastCompactionAfterMillis;
    /* Pages and journal entries written when the last compaction after a checkpoint was asked for:
    an idle subtask's checkpoints call for none. */
    private transient long writtenAtCompaction;

    private transient long lastSummaryNanos;
    /* Pages loaded and records decided at the last summary, for the cache-thrashing warning. */
    private transient long loadedAtSummary;
    private transient long recordsAtSummary;
    /* Exact mode's rebuilds spread over records, oldest first (see rebuild()). */
    private transient ArrayDeque<KeyFilter> rebuilds;
    private transient boolean spreadRebuilds;
    /* The longest processElement call since the last checkpoint, and in the last interval. */
    private transient long longestNanos;
    private transient long longestNanosLastInterval;
    private transient long longestNanosEver;

    /** The filter cache's most heap at once in this interval, and in the last (a gauge). */
    private transient long cachePeakBytes;

    private transient long cachePeakBytesLastInterval;

    /** Whether the job-wide time rules met a key in fingerprint pages yet (logged once). */
    private transient boolean warnedRulesSkipPages;

    /* Approximate mode: new URLs expected dropped as false positives since the subtask started. */
    private transient double expectedFalsePositives;

    /* Rebuild work (at once or spread) inside the current record, and its longest per record. */
    private transient long rebuildNanos;
    private transient long longestRebuildNanos;

    /** The state summary in the log comes at most this often per subtask (at a checkpoint). */
    private static final long SUMMARY_INTERVAL_NANOS = 60_000_000_000L;

    /* Own logger: AbstractStreamOperator's would name every line after the base class. */
    private static final Logger LOG = LoggerFactory.getLogger(DedupOperator.class);

    /** A rebuild that reads at least this many fingerprints is logged at INFO with its duration. */
    private static final long LOG_REBUILDS_FROM = 1_000_000;

    public DedupOperator(DedupConfig config) {
        this.config = config;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        settingsState = context.getOperatorStateStore().getUnionListState(DedupState.settings());
        fingerprintState =
                context.getOperatorStateStore().getUnionListState(DedupState.fingerprintFunction());
        fingerprints = restoredFingerprints(context.isRestored());
        fingerprintState.update(List.of(fingerprints.stored()));
        if (context.isRestored()) {
            Map<String, String> previous = SettingsGuard.decode(settingsState.get());
            List<String> problems = SettingsGuard.check(previous, config.guarded());
            if (!problems.isEmpty() && !config.allowGuardedChange()) {
                // Not recoverable by retrying: fail the job once instead of restarting forever.
                throw new SuppressRestartsException(
                        new IllegalStateException(
                                "Refusing to restore FirstSeen state: "
                                        + String.join("; ", problems)
                                        + ". Restore with the previous settings, start from an"
                                        + " empty state, or set 'dedup.allow-settings-change:"
                                        + " true' to accept the consequences."));
            }
            if (!problems.isEmpty()) {
                LOG.warn("Restoring despite changed settings: {}", problems);
            }
            LOG.info(
                    "Dedup subtask {}: restored state of checkpoint {} written with {}; running"
                            + " with {}. Bloom pages load from keyed state on first use.",
                    getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    context.getRestoredCheckpointId().orElse(-1L),
                    previous,
                    config.guarded());
            restoredFromExact =
                    DedupMode.EXACT.name().equals(previous.get(SettingsGuard.DEDUP_MODE))
                            && config.mode() == DedupMode.APPROXIMATE;
            if (restoredFromExact) {
                LOG.info(
                        config.convertsExactKeys()
                                ? "Switched from exact to approximate mode: each key in exact"
                                        + " mode's fingerprint pages becomes approximate mode's"
                                        + " filter as the operator opens (metric {})."
                                : "Switched from exact to approximate mode: keys in exact mode's"
                                        + " fingerprint pages stay exact (metric {} stays 0;"
                                        + " dedup.approximate.convert-exact-keys: false, or the"
                                        + " BLOOM filter).",
                        FirstSeenMetrics.EXACT_KEYS_CONVERTED);
            }
        }
        settingsState.update(SettingsGuard.encode(config.guarded()));
    }

    /**
     * The fingerprint function the state was written with: the recorded one (every subtask recorded
     * the same), Murmur3 for state of a version that recorded none, or, without state, the
     * configured one (a new secret key).
     */
    private FingerprintFunction restoredFingerprints(boolean restored) throws Exception {
        String recorded = null;
        for (String s : fingerprintState.get()) {
            if (recorded != null && !recorded.equals(s)) {
                throw new SuppressRestartsException(
                        new IllegalStateException(
                                "Refusing to restore FirstSeen state: its subtasks recorded"
                                        + " different fingerprint functions"));
            }
            recorded = s;
        }
        if (recorded != null) {
            return FingerprintFunction.parse(recorded);
        }
        boolean hadState = restored && settingsState.get().iterator().hasNext();
        if (hadState) {
            LOG.warn(
                    "The restored state was written before fingerprints were keyed: it keeps"
                            + " {}, whose collisions can be built on purpose, so a crafted page"
                            + " can hide a chosen URL. Start from an empty state to switch to"
                            + " keyed fingerprints.",
                    FingerprintFunction.LEGACY_MURMUR3);
            return FingerprintFunction.LEGACY_MURMUR3;
        }
        return config.fingerprints();
    }

    @Override
    public void open() throws Exception {
        super.open();
        pages = getRuntimeContext().getMapState(DedupState.bloomPages());
        metaState = getRuntimeContext().getState(DedupState.bloomMeta());
        journal = getRuntimeContext().getListState(DedupState.pageJournal());
        if (config.mode() == DedupMode.EXACT) {
            // The layout follows the fingerprints the state was written with (initializeState).
            exact = ExactStore.open(getRuntimeContext(), fingerprints);
        }
        loader = new CountingPageLoader(pages);
        cacheBudget =
                FilterCacheBudget.resolve(
                        config.filterCacheBytes(),
                        config.filterCacheHeapFraction(),
                        getContainingTask()
                                .getEnvironment()
                                .getTaskManagerInfo()
                                .getConfiguration(),
                        Runtime.getRuntime().maxMemory());
        cache = new FilterCache(new StateBacking(), cacheBudget.bytes(), config.packMaxPages());
        conversionLimit = KeyFilter.buildLimit(cacheBudget.slotHeap());
        recent = new RecentFingerprintCache(config.recentCacheEntries(), fingerprints.bits());
        lastSummaryNanos = System.nanoTime() - SUMMARY_INTERVAL_NANOS; // first checkpoint logs
        recordsAtSummary = -1;
        metrics = new DedupMetrics(getRuntimeContext(), getMetricGroup());
        ops = new SeenSetOps(exact, recent, loader, metrics);
        forgetAfter = config.forgetAfterMillis();
        generationMillis = config.generationMillis();
        if (forgetAfter > 0) {
            lastSweep = getRuntimeContext().getState(DedupState.lastSweep());
            sweepTimer = getRuntimeContext().getState(DedupState.sweepTimer());
            sweepTimers =
                    getInternalTimerService(
                            DedupState.SWEEP_TIMERS, VoidNamespaceSerializer.INSTANCE, this);
        }
        revisit =
                config.revisitAfterMillis() > 0
                        ? new RevisitRule(config.revisitAfterMillis())
                        : null;
        if (revisit != null || forgetAfter > 0) {
            recent.keepTimes();
        }
        metrics.gauge("filterCacheBytes", cache::bytes);
        metrics.gauge("filterCacheBudgetBytes", cacheBudget::bytes);
        metrics.gauge(FirstSeenMetrics.FILTER_CACHE_PEAK_BYTES, () -> cachePeakBytesLastInterval);
        metrics.gauge("filterCacheKeys", cache::keys);
        metrics.gauge("filterCachePages", cache::pages);
        metrics.gauge("filterCachePackedKeys", cache::packedKeys);
        metrics.gauge("pagesFlushedLastCheckpoint", () -> lastFlushPages);
        metrics.gauge("pagesCompactionMillisLastCheckpoint", () -> lastCompactionMillis);
        metrics.gauge("compactionAfterCheckpointMillis", () -> lastCompactionAfterMillis);
        metrics.gauge("keysWrittenWholeAfterCheckpoints", () -> keysWrittenAfterCheckpoint);
        rebuilds = new ArrayDeque<>();
        compactionRequests = new AtomicInteger();
        writtenAtCompaction = -1;
        afterCheckpoint =
                config.compactAfterCheckpoint()
                                && getKeyedStateBackend()
                                        instanceof RocksDBKeyedStateBackend<?> rocksDb
                        ? rocksDb
                        : null;
        // A scan that outlives its record needs map-state iterators that survive writes to the
        // same key: RocksDB's re-seek from the last key read (RocksDBMapState.RocksDBMapIterator),
        // the heap backend's iterate a live HashMap. On the heap, rebuilds happen at once.
        spreadRebuilds =
                exact != null && !(getKeyedStateBackend() instanceof HeapKeyedStateBackend);
        metrics.gauge(FirstSeenMetrics.FILTER_REBUILDS_PENDING, rebuilds::size);
        metrics.gauge(
                FirstSeenMetrics.LONGEST_RECORD_MICROS, () -> longestNanosLastInterval / 1000);
        metrics.gauge(FirstSeenMetrics.LONGEST_REBUILD_MICROS, () -> longestRebuildNanos / 1000);
        // The configured rate beside the measured one, so an alert can compare the two.
        metrics.gauge("configuredFalsePositiveRate", config::falsePositiveRate);
        metrics.gauge(FirstSeenMetrics.EXPECTED_FALSE_POSITIVES, () -> expectedFalsePositives);
        FilterMeta first = config.newFilter();
        LOG.info(
                "Dedup mode {}: a new key's filter starts at {} URLs as {}, target rate {}, grows"
                        + " by {}; filter cache {} bytes ({}); L1 {} entries ({} bytes); fingerprints {}",
                config.mode(),
                config.expectedUrlsPerKey(),
                first,
                config.falsePositiveRate(),
                first.isExactFingerprints()
                        ? "splitting pages (the pages are the exact seen-set)"
                        : config.mode() == DedupMode.EXACT
                                ? "rebuilding from the exact store"
                                : first.isFingerprints() ? "fingerprint classes" : "Bloom layers",
                cacheBudget.bytes(),
                cacheBudget.origin(),
                recent.capacity(),
                recent.bytes(),
                fingerprints);
        if (restoredFromExact && config.convertsExactKeys()) {
            convertExactKeys();
        }
    }

    /**
     * After a restore of state written in exact mode, turns its keys into approximate mode's filter
     * at once and writes them to state, so that the keys no record touches shrink too; a key's
     * pause of {@link StateBacking#convert} is then the task's start, and so is compacting what the
     * exact keys leave. Keys are listed first: the heap backend's key iterator does not survive
     * writes. Progress is logged every 10 s. A failure restores the checkpoint, which still records
     * exact mode, so the next start converts again from the beginning.
     *
     * <p>A key of fingerprint pages converts as a record would load it, and the times its entries
     * store kept for some of its URLs are deleted. A key of the entries store behind a Bloom filter
     * converts from its store's fingerprints, which are whole, when the store holds as many as the
     * filter counted inserts: every insert of exact mode went to both, and only a forget or an
     * expiry (or a restore of approximate state into exact mode forced by {@code
     * dedup.allow-settings-change}, whose URLs only the filter holds) leaves the store with fewer.
     * Such a key keeps its Bloom filter, which still answers for the URLs it held.
     */
    private void convertExactKeys() throws Exception {
        long start = System.nanoTime();
        List<Object> keys;
        try (Stream<Object> s =
                getKeyedStateBackend()
                        .getKeys(DedupState.bloomMeta().getName(), VoidNamespace.INSTANCE)) {
            keys = s.collect(Collectors.toList());
        }
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        LOG.info(
                "Dedup subtask {}: converting the exact-mode keys among {} to approximate mode's"
                        + " filter (dedup.approximate.convert-exact-keys)",
                subtask,
                keys.size());
        ExactStore store = ExactStore.open(getRuntimeContext(), fingerprints);
        StateBacking backing = new StateBacking();
        long pagesKeys = 0;
        long entriesKeys = 0;
        long keptBloom = 0;
        long mergedBefore = urlsConvertedByMerges;
        long lastLog = start;
        for (int i = 0; i < keys.size(); i++) {
            Object key = keys.get(i);
            setCurrentKey(key);
            FilterMeta m = metaState.value();
            if (m == null || m.isFingerprints() && !m.isExactFingerprints()) {
                continue; // approximate mode's already
            }
            if (m.isExactFingerprints()) {
                backing.write(backing.load(key));
                store.clear();
                pagesKeys++;
            } else {
                // Built as the store is read, so that the heap never holds a large key's
                // fingerprints whole; thrown away if the store turns out short.
                KeyFilter.ClassBuilder b =
                        KeyFilter.builder(key, config.newFilter(), conversionLimit);
                long n = 0;
                for (Fingerprint fp : store.fingerprints()) {
                    b.add(fp.hi);
                    n++;
                }
                if (n == 0 || n < m.count()) {
                    keptBloom++;
                    continue;
                }
                KeyFilter f = b.done();
                urlsConvertedByMerges += b.merged();
                pages.clear(); // a Bloom filter's key has no journal
                store.clear();
                backing.write(f);
                metrics.exactKeysConverted.inc();
                entriesKeys++;
            }
            long now = System.nanoTime();
            if (now - lastLog >= 10_000_000_000L) {
                lastLog = now;
                LOG.info(
                        "Dedup subtask {}: {} of {} keys read, {} converted, {} s",
                        subtask,
                        i + 1,
                        keys.size(),
                        pagesKeys + entriesKeys,
                        (now - start) / 1_000_000_000);
            }
        }
        long convertedNanos = System.nanoTime();
        long compactionMillis = 0;
        if (pagesKeys + entriesKeys > 0
                && getKeyedStateBackend() instanceof RocksDBKeyedStateBackend<?> db) {
            // The exact pages, journals and entries are deletions until compacted: the first
            // checkpoint would hold them beside the converted keys (1.2 times the exact state in
            // ExactPagesOperatorTest instead of a quarter of it).
            db.compactState(DedupState.bloomPages());
            db.compactState(DedupState.pageJournal());
            db.compactState(DedupState.bloomMeta());
            db.compactState(fingerprints.bits() == 64 ? DedupState.seen64() : DedupState.seen());
            compactionMillis = (System.nanoTime() - convertedNanos) / 1_000_000;
        }
        LOG.info(
                "Dedup subtask {}: of {} keys converted {} of fingerprint pages and {} of the"
                        + " entries store in {} ms, then compacted them in {} ms; {} of the entries"
                        + " store keep their Bloom filter (a forget or an expiry left their store"
                        + " with fewer URLs than the filter); {} URLs went in by merges"
                        + " into classes already written (classes past {} prefixes, the most the"
                        + " heap builds whole at once, or past the last class)",
                subtask,
                keys.size(),
                pagesKeys,
                entriesKeys,
                (convertedNanos - start) / 1_000_000,
                compactionMillis,
                keptBloom,
                urlsConvertedByMerges - mergedBefore,
                conversionLimit);
    }

    @Override
    public void processElement(StreamRecord<CanonicalUrl> element) throws Exception {
        long start = System.nanoTime();
        if (afterCheckpointDue) {
            afterCheckpointBegun = true;
            writeWholeAfterCheckpoint(wholePagesPerRecord);
        }
        rebuildNanos = 0;
        if (!rebuilds.isEmpty()) {
            stepRebuilds();
            rebuildNanos = System.nanoTime() - start;
        }
        process(element);
        long peak = cache.takePeakBytes();
        if (peak > cachePeakBytes) {
            cachePeakBytes = peak;
        }
        long took = System.nanoTime() - start;
        if (took > longestNanos) {
            longestNanos = took;
        }
        if (rebuildNanos > longestRebuildNanos) {
            longestRebuildNanos = rebuildNanos;
        }
    }

    private void process(StreamRecord<CanonicalUrl> element) throws Exception {
        CanonicalUrl in = element.getValue();
        if (in.op != Op.SEEN) {
            processOp(element);
            return;
        }
        Fingerprint fp = fingerprints.of(in.canonical);
        // The record's own revisit_after overrides the job's dedup.revisit-after.
        RevisitRule revisit =
                in.revisitAfterMillis > 0 ? new RevisitRule(in.revisitAfterMillis) : this.revisit;
        // Without a time rule a duplicate is one whatever the time: no clock read for it.
        boolean timed = revisit != null || forgetAfter > 0;
        if (timed && !recent.keepsTimes()) {
            recent.keepTimes(); // a record's own revisit_after, the first: from now on
        }
        long cached = recent.timeOf(fp);
        long t = timed ? decisionTime(in) : 0;
        boolean timeKnown = cached != RecentFingerprintCache.UNKNOWN;
        if (cached != RecentFingerprintCache.ABSENT
                && (revisit == null || (timeKnown && !revisit.due(cached, t)))
                && (forgetAfter == 0 || (timeKnown && t - cached < forgetAfter))) {
            metrics.l1Hits.inc();
            metrics.duplicates.inc();
            return;
        }
        // A key packed since the last checkpoint (FilterCache#pack) answers a duplicate as its
        // filter would, and stays packed; so does a new URL, which the cache holds until the key's
        // filter is needed or the checkpoint. Not when the answer needs a time rule or the exact
        // store: in exact mode only a key kept in fingerprint pages answers so.
        // Approximate mode's generations (dedup.forget-after) need the filter only when one is due
        // to be forgotten or started (the cache tells from the packed key).
        KeyFilter filter =
                timed && generationMillis == 0
                        ? cache.get(getCurrentKey())
                        : cache.getUnlessPackedHolds(
                                getCurrentKey(),
                                fp,
                                exact != null,
                                t,
                                generationMillis > 0 ? forgetAfter : 0);
        if (filter == null && cache.heldNew()) {
            metrics.l2DefinitelyNew.inc();
            expectFalsePositives(cache.heldNewRate());
            metrics.firstSeen.inc();
            long now = decisionTime(in);
            emit(element, in, now, null);
            recent.add(fp, now);
            return;
        }
        if (filter == null) {
            metrics.l2Maybe.inc();
            metrics.duplicates.inc();
            recent.add(fp, RecentFingerprintCache.UNKNOWN);
            return;
        }
        if (generationMillis > 0) {
            filter = generations(filter, t, true);
        }
        long bytesBefore = filter.bytes();
        long loadsBefore = loader.loads();

        boolean isNew;
        Long lastEmitted = null; // set when a seen URL is due for a revisit
        long knownTime = RecentFingerprintCache.UNKNOWN;
        // A key in fingerprint pages (ExactStoreType.PAGES) has its whole seen-set in them; the
        // exact store holds only the times of its URLs that came with their own revisit_after.
        boolean pagesKey = filter.meta.isExactFingerprints();
        boolean entriesKey = exact != null && !pagesKey;
        boolean ownTime = pagesKey && in.revisitAfterMillis > 0;
        if (pagesKey && (this.revisit != null || forgetAfter > 0) && !warnedRulesSkipPages) {
            warnedRulesSkipPages = true;
            LOG.warn(
                    "Key {} keeps its URLs in fingerprint pages, which keep no times:"
                            + " dedup.revisit-after and dedup.forget-after do not apply to its URLs"
                            + " (keys created from now on get the entries store). Logged once.",
                    getCurrentKey());
        }
        if (!filter.mightContain(fp, loader)) {
            metrics.l2DefinitelyNew.inc();
            if (exact == null && filter.meta.strategy == FilterMeta.FINGERPRINTS) {
                expectFalsePositives(FingerprintFilterMath.rate(filter.meta));
            }
            isNew = true;
        } else {
            metrics.l2Maybe.inc();
            if (ownTime) {
                metrics.l3Reads.inc();
                Long stored = exact.get(fp);
                isNew = false;
                if (stored == null) {
                    // Seen before without a time: the revisit clock starts now, never earlier.
                    exact.put(fp, t);
                    knownTime = t;
                } else if (revisit.due(stored, t)) {
                    lastEmitted = stored;
                } else {
                    knownTime = stored;
                }
            } else if (!entriesKey) {
                isNew = false;
            } else {
                metrics.l3Reads.inc();
                Long stored = exact.get(fp);
                if (stored != null && forgetAfter > 0 && t - stored >= forgetAfter) {
                    exact.remove(fp); // not emitted for forget-after: forgotten, so new
                    metrics.expired.inc();
                    stored = null;
                } else if (stored == null) {
                    metrics.falsePositivesCaught.inc();
                }
                isNew = stored == null;
                if (isNew) {
                    // counted above: a caught false positive or an expired entry
                } else if (revisit != null && revisit.due(stored, t)) {
                    lastEmitted = stored;
                } else {
                    knownTime = stored;
                }
            }
        }

        if (isNew || lastEmitted != null) {
            if (!timed) {
                t = decisionTime(in);
            }
            if (isNew) {
                insert(filter, fp, t);
                metrics.firstSeen.inc();
            } else {
                metrics.revisits.inc();
            }
            if (entriesKey || ownTime) {
                exact.put(fp, t);
            }
            emit(element, in, t, lastEmitted);
            knownTime = t;
        } else {
            metrics.duplicates.inc();
        }
        recent.add(fp, knownTime);
        if (forgetAfter > 0 && entriesKey) { // fingerprint pages keep no times to expire
            sweep(t);
        }

        metrics.pagesLoaded.inc(loader.loads() - loadsBefore);
        cache.update(filter, bytesBefore);
    }

    /**
     * Counts a new URL that met {@code rate} in its key's fingerprint classes ({@link
     * FingerprintFilterMath#rate}) towards {@link FirstSeenMetrics#EXPECTED_FALSE_POSITIVES}. The
     * new URLs that the filter dropped are not seen here: a key at that rate drops {@code rate / (1
     * - rate)} new URLs on average before one goes in, so each one seen adds that, and the sum's
     * expectation is the expected number dropped. Rates above 0.5, which only a saturated filter
     * reaches, count as 0.5.
     */
    private void expectFalsePositives(double rate) {
        double r = Math.min(rate, 0.5);
        expectedFalsePositives += r / (1 - r);
    }

    /** Emits {@code in} to the frontier, decided at {@code t}; a revisit if {@code lastEmitted}. */
    private void emit(
            StreamRecord<CanonicalUrl> element, CanonicalUrl in, long t, Long lastEmitted) {
        FrontierRecord r =
                new FrontierRecord(in.url, in.canonical, in.key, t, in.metaJson, in.source);
        r.metaOmitted = in.metaOmitted;
        if (lastEmitted != null) {
            r.revisit = true;
            r.lastEmitted = lastEmitted;
        }
        output.collect(element.replace(r));
    }

    /**
     * {@code dedup.forget-after}'s space half: a key's exact store is swept of entries not emitted
     * for that long at most every quarter of it, when a record of the key comes; the time is the
     * record's, so a replay sweeps alike. A read finds an expired entry expired whether or not a
     * sweep has run. The filter keeps its bits until its next rebuild, which reads the store. Keys
     * that get no records are swept by their idle timer ({@link #onProcessingTime}).
     */
    private void sweep(long t) throws Exception {
        Long last = lastSweep.value();
        if (last == null) {
            lastSweep.update(t);
            armIdleSweep(forgetAfter);
        } else if (t - last >= forgetAfter / 4) {
            metrics.expired.inc(exact.removeUpTo(t - forgetAfter));
            lastSweep.update(t);
            armIdleSweep(forgetAfter);
        }
    }

    /**
     * A key that gets no records is swept by a processing-time timer instead: {@code delay} from
     * now, replacing the key's previous one (one timer per key, moved at each record-driven sweep,
     * so only idle keys ever fire).
     */
    private void armIdleSweep(long delay) throws Exception {
        armSweepAt(getProcessingTimeService().getCurrentProcessingTime() + delay);
    }

    /** Moves the current key's sweep timer to processing time {@code at}. */
    private void armSweepAt(long at) throws Exception {
        Long previous = sweepTimer.value();
        if (previous != null) {
            if (previous == at) {
                return;
            }
            sweepTimers.deleteProcessingTimeTimer(VoidNamespace.INSTANCE, previous);
        }
        sweepTimers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, at);
        sweepTimer.update(at);
    }

    /**
     * Approximate mode's {@code dedup.forget-after} on the current key's {@code filter} at time
     * {@code t} (a record's decision time, or the processing time of the key's sweep timer): a
     * fingerprint filter without generations joins them, its URLs in the generation of {@code t};
     * the generations that ended {@code forget-after} before {@code t} are forgotten, and the key's
     * state with them if that is all of them. Returns the key's filter; if all was forgotten, a new
     * one for a record ({@code forRecord}) and null for the timer. A Bloom filter or exact mode's
     * pages, which a switch of mode may leave, keep their URLs.
     */
    private KeyFilter generations(KeyFilter filter, long t, boolean forRecord) throws Exception {
        FilterMeta m = filter.meta;
        if (m.strategy != FilterMeta.FINGERPRINTS) {
            if (!warnedNoGenerations) {
                warnedNoGenerations = true;
                LOG.warn(
                        "Key {} keeps {}, which cannot forget in generations: dedup.forget-after"
                                + " does not apply to its URLs. Logged once.",
                        getCurrentKey(),
                        m.isExactFingerprints()
                                ? "exact mode's fingerprint pages (not converted)"
                                : "a Bloom filter");
            }
            return filter;
        }
        long before = filter.bytes();
        if (!m.hasGenerations()) {
            filter.startGenerations(generationEnd(t), config.generationFalsePositiveRate());
            cache.update(filter, before);
            armGenerationSweep(m);
            return filter;
        }
        int k = m.expiredClasses(t, forgetAfter);
        if (k == 0) {
            return filter;
        }
        long urls = 0;
        for (int c = 0; c < k; c++) {
            urls += m.entries(c);
        }
        metrics.expired.inc(urls);
        if (k == m.classCount()) {
            pages.clear();
            journal.clear();
            metaState.clear();
            cache.remove(getCurrentKey());
            return forRecord ? generations(cache.get(getCurrentKey()), t, true) : null;
        }
        long loadsBefore = loader.loads();
        filter.dropOldest(k, loader); // reads the stored pages it keeps: clear them after
        metrics.pagesLoaded.inc(loader.loads() - loadsBefore);
        pages.clear();
        journal.clear();
        cache.update(filter, before);
        return filter;
    }

    /**
     * Sets the current key's timer to when its newest generation will have ended {@code
     * forget-after} ago, on the processing-time clock, and not before {@code forget-after} from
     * now: records of a backfill, whose times lie well behind the clock, leave their keys to the
     * records that follow, as exact mode's idle sweep does.
     */
    private void armGenerationSweep(FilterMeta m) throws Exception {
        long newest = m.newestUntil();
        long now = getProcessingTimeService().getCurrentProcessingTime();
        armSweepAt(Math.max(newest, now) + forgetAfter);
    }

    /** The end of the generation that time {@code t} falls in. */
    private long generationEnd(long t) {
        return (Math.floorDiv(t, generationMillis) + 1) * generationMillis;
    }

    /**
     * An idle key's sweep in approximate mode, on processing time {@code now}: its generations that
     * ended {@code forget-after} before now are forgotten, which is all of them unless a record
     * started a newer one since the timer was set (that moves the timer); a key left with none is
     * removed whole.
     */
    private void sweepGenerations(long now) throws Exception {
        Object key = getCurrentKey();
        KeyFilter cached = cache.peek(key);
        FilterMeta m = cached != null ? cached.meta : metaState.value();
        if (m == null || m.strategy != FilterMeta.FINGERPRINTS || !m.hasGenerations()) {
            return; // forgotten by a forget-key, or a key that keeps its URLs
        }
        // Loaded, journal and all, so that the URLs it forgets are counted whole.
        KeyFilter f = generations(cached != null ? cached : cache.get(key), now, false);
        if (f != null) {
            armGenerationSweep(f.meta);
        }
    }

    /**
     * An idle key's sweep, on processing time: entries not emitted for {@code forget-after} before
     * now go; a key left with none is removed whole (filter pages, metadata, timers), so the state
     * of a crawl that stops seeing a domain shrinks to nothing for it.
     */
    @Override
    public void onProcessingTime(InternalTimer<Object, VoidNamespace> timer) throws Exception {
        sweepTimer.clear();
        if (generationMillis > 0) {
            sweepGenerations(timer.getTimestamp());
            return;
        }
        if (isExactFingerprints()) {
            return; // a key kept in fingerprint pages: its (empty) exact store says nothing
        }
        metrics.expired.inc(exact.removeUpTo(timer.getTimestamp() - forgetAfter));
        if (!exact.isEmpty()) {
            armIdleSweep(Math.max(1, forgetAfter / 4));
        } else {
            pages.clear();
            metaState.clear();
            journal.clear();
            lastSweep.clear();
            cache.remove(getCurrentKey());
        }
    }

    /** True if the current key is kept in fingerprint pages (cached copy first, then state). */
    private boolean isExactFingerprints() throws Exception {
        KeyFilter cached = cache.peek(getCurrentKey());
        FilterMeta m = cached != null ? cached.meta : metaState.value();
        return m != null && m.isExactFingerprints();
    }

    @Override
    public void onEventTime(InternalTimer<Object, VoidNamespace> timer) {
        // No event-time timers.
    }

    /** The record's Kafka timestamp, clamped to the processing time ({@link RevisitRule}). */
    private long decisionTime(CanonicalUrl in) {
        return RevisitRule.decisionTime(
                in.source.timestamp, getProcessingTimeService().getCurrentProcessingTime());
    }

    /** Hands a non-{@code seen} op to {@link SeenSetOps}, with this operator's levels. */
    private void processOp(StreamRecord<CanonicalUrl> element) throws Exception {
        CanonicalUrl in = element.getValue();
        Fingerprint fp = in.op == Op.FORGET_KEY ? null : fingerprints.of(in.canonical);
        ops.apply(
                in,
                fp,
                new SeenSetOps.Levels() {
                    @Override
                    public KeyFilter filter() throws Exception {
                        KeyFilter f = cache.get(getCurrentKey());
                        return generationMillis > 0 ? generations(f, decisionTime(in), true) : f;
                    }

                    @Override
                    public void insert(KeyFilter f, Fingerprint p) throws Exception {
                        DedupOperator.this.insert(f, p, decisionTime(in));
                    }

                    @Override
                    public boolean inCurrentGeneration(KeyFilter f, Fingerprint p)
                            throws Exception {
                        return f.meta.hasGenerations()
                                && decisionTime(in) < f.meta.newestUntil()
                                && f.inNewestGeneration(p, loader);
                    }

                    @Override
                    public void clearKey() throws Exception {
                        if (exact != null) {
                            exact.clear();
                        }
                        pages.clear();
                        metaState.clear();
                        journal.clear();
                        cache.remove(getCurrentKey());
                    }

                    @Override
                    public void touched(KeyFilter f, long bytesBefore, long loadsBefore)
                            throws Exception {
                        metrics.pagesLoaded.inc(loader.loads() - loadsBefore);
                        cache.update(f, bytesBefore);
                    }

                    @Override
                    public long now() {
                        return decisionTime(in);
                    }

                    @Override
                    public void emit(FrontierRecord r) {
                        output.collect(element.replace(r));
                    }
                });
    }

    /**
     * Inserts a new URL decided at {@code t}; in approximate mode with generations, into the
     * generation of {@code t}, started first if the key's newest one has ended.
     */
    private void insert(KeyFilter f, Fingerprint fp, long t) throws Exception {
        if (generationMillis > 0 && f.meta.hasGenerations() && t >= f.meta.newestUntil()) {
            f.startGeneration(generationEnd(t));
            armGenerationSweep(f.meta);
        }
        insert(f, fp);
    }

    private void insert(KeyFilter f, Fingerprint fp) throws Exception {
        if (exact != null
                && !f.meta.isFingerprints()
                && f.meta.isFull()
                && !f.meta.saturated
                && !f.isRebuilding()) {
            rebuild(f);
        }
        boolean wasSaturated = f.meta.saturated;
        if (f.insert(fp, loader)) {
            LOG.debug("Bloom filter of key {} grew to {}", f.key(), f.meta);
        }
        if (f.meta.saturated && !wasSaturated) {
            saturated(f);
        }
    }

    /** A key's filter reached its size limit: say so once; its rate rises from now on. */
    private void saturated(KeyFilter f) {
        metrics.filterSaturated.inc();
        LOG.warn(
                "Bloom filter of key {} cannot grow past {} ({} URLs; at most {} layers of {}"
                        + " pages): it keeps filling its newest layer, so its rate rises above"
                        + " {}{}",
                f.key(),
                f.meta,
                f.meta.count(),
                BloomLayer.MAX_LAYERS,
                BloomLayer.MAX_PAGES,
                f.meta.targetFpp(),
                exact != null
                        ? " (more exact-store reads, no wrong answers)"
                        : " (more new URLs dropped as duplicates)");
    }

    /**
     * Exact mode's growth: replaces the current key's filter with one layer for twice its URLs,
     * filled from L3. Also turns a multi-layer filter written by an older version into one layer. A
     * key of at most {@code dedup.bloom.rebuild-step} URLs is rebuilt here, inside the record that
     * filled it; a larger one joins the queue that {@link #stepRebuilds} works through, so that no
     * record waits for a scan of millions of entries.
     */
    private void rebuild(KeyFilter f) throws Exception {
        long before = f.meta.count();
        BloomLayer layer =
                BloomLayer.sizedOrNull(
                        BloomMath.rebuildCapacity(f.meta.initialCapacity(), before),
                        f.meta.targetFpp(),
                        BloomMath.EXACT_FROM_FILL);
        if (layer == null) {
            f.meta.saturated = true;
            saturated(f);
            return;
        }
        if (spreadRebuilds && before > config.rebuildStep()) {
            f.startRebuild(layer);
            rebuilds.addLast(f);
            LOG.debug(
                    "Bloom filter of key {} ({} URLs) queued for a spread rebuild",
                    f.key(),
                    before);
            return;
        }
        long start = System.nanoTime();
        pages.clear(); // the current key is f's key: insert() runs for the record's own key
        long read = f.rebuild(layer, exact.fingerprints());
        metrics.filterRebuildReads.inc(read);
        long took = System.nanoTime() - start;
        rebuildNanos += took;
        rebuilt(f, read, before, took / 1_000_000 + " ms");
    }

    private void rebuilt(KeyFilter f, long read, long before, String took) {
        metrics.filterRebuilds.inc();
        if (read >= LOG_REBUILDS_FROM || read != before) {
            LOG.info(
                    "Bloom filter of key {} rebuilt from {} exact-store entries (filter counted {})"
                            + " into {} {}",
                    f.key(),
                    read,
                    before,
                    f.meta,
                    took);
        }
    }

    /**
     * Works on the queued rebuilds, oldest first, reading at most {@code dedup.bloom.rebuild-step}
     * exact-store entries in all. A queued key that left the filter cache (evicted, or its state
     * cleared) drops its rebuild: its stored filter is still valid, and its next insert queues it
     * again. Each scan is opened under its own key and keeps that key's prefix (RocksDB map state).
     */
    private void stepRebuilds() throws Exception {
        Object current = getCurrentKey();
        long budget = config.rebuildStep();
        try {
            while (budget > 0 && !rebuilds.isEmpty()) {
                KeyFilter f = rebuilds.peekFirst();
                if (!f.isRebuilding() || !cache.touch(f)) {
                    // Evicted or cleared (which dropped its rebuild): not the cache's any more.
                    rebuilds.pollFirst();
                    f.abandonRebuild();
                    continue;
                }
                long bytesBefore = f.bytes();
                if (!f.rebuildStarted()) {
                    setCurrentKey(f.key());
                    f.rebuildFrom(exact.fingerprints().iterator());
                }
                long n = f.rebuildStep(budget);
                budget -= n;
                metrics.filterRebuildReads.inc(n);
                if (f.rebuildScanned()) {
                    rebuilds.pollFirst();
                    long counted = f.meta.count();
                    long read = f.rebuildRead();
                    setCurrentKey(f.key());
                    pages.clear();
                    f.finishRebuild();
                    rebuilt(f, read, counted, "over the records since it was queued");
                }
                cache.update(f, bytesBefore);
            }
        } finally {
            if (current != null) {
                setCurrentKey(current);
            }
        }
    }

    /** Loads filters from and writes them to keyed state, under their own keys. */
    private final class StateBacking implements FilterCache.Backing {
        @Override
        public KeyFilter load(Object key) throws Exception {
            // Called for the current key: a record of that key asked for its filter.
            FilterMeta stored = metaState.value();
            if (stored == null) {
                return new KeyFilter(key, config.newFilter(), true);
            }
            FilterMeta m = stored.copy().withJournal(false);
            if (m.isExactFingerprints()) {
                m.splitPagesPast(config.exactPageEntries());
            } else if (m.isFingerprints()) {
                m.splitPagesPast(config.approximatePageEntries());
            }
            KeyFilter f = new KeyFilter(key, m, false);
            f.storedJournalFlag(stored.journal);
            boolean converts = m.isExactFingerprints() && config.convertsExactKeys();
            long[] his = null;
            if (stored.journal) {
                his = PageJournal.decode(journal.get());
                if (!converts) { // a conversion takes them as they are, not inserted into pages
                    f.replay(his, loader);
                }
                metrics.pageJournalReplayed.inc(his.length);
            }
            if (converts) {
                return convert(key, f, his);
            }
            if (config.pageJournalShare() == 0) {
                f.journalOff(); // a restored journal is written into the pages at the next flush
            }
            return f;
        }

        /**
         * {@code exact}, a key in exact mode's fingerprint pages loaded by a job in approximate
         * mode with the fingerprints of its journal, {@code journaled} (or null), not inserted, as
         * approximate mode's filter ({@code dedup.approximate.convert-exact-keys}). Its pages and
         * journal leave state now and its new filter is written whole at the next flush, as a new
         * key's is, or at once by {@link #convertExactKeys}; a failure before the next checkpoint
         * restores the exact key.
         */
        private KeyFilter convert(Object key, KeyFilter exact, long[] journaled) throws Exception {
            long start = System.nanoTime();
            // Not the stored flag: a key written whole keeps it set over an empty journal.
            boolean hadJournal = journaled != null && journaled.length > 0;
            long urls = exact.meta.count() + (hadJournal ? journaled.length : 0);
            long loadsBefore = loader.loads();
            KeyFilter.ClassBuilder b = KeyFilter.builder(key, config.newFilter(), conversionLimit);
            KeyFilter f = b.addExact(exact, journaled, loader).done();
            urlsConvertedByMerges += b.merged();
            metrics.pagesLoaded.inc(loader.loads() - loadsBefore);
            pages.clear();
            if (hadJournal) { // a list state's clear writes a deletion even where there is none
                journal.clear();
            }
            metrics.exactKeysConverted.inc();
            long millis = (System.nanoTime() - start) / 1_000_000;
            if (!loggedConversion || millis >= 1000) {
                loggedConversion = true;
                LOG.info(
                        "Key {} converted from exact mode's fingerprint pages to approximate"
                                + " mode's filter: {} URLs in {} ms ({} of them merged into"
                                + " classes already written, past {} prefixes), {} classes now (metric"
                                + " {}; dedup.approximate.convert-exact-keys). Logged for the"
                                + " first key and for any that takes a second or more.",
                        key,
                        urls,
                        millis,
                        b.merged(),
                        conversionLimit,
                        f.meta.classCount(),
                        FirstSeenMetrics.EXACT_KEYS_CONVERTED);
            }
            return f;
        }

        @Override
        public int write(KeyFilter f) throws Exception {
            Object current = switchTo(f);
            int n = f.dirtyPages();
            if (f.metaDirty || f.journaled() > 0) {
                // The flag is set here, not with the first element that follows: that would rewrite
                // the metadata after the compaction that follows a whole write after a checkpoint,
                // and the next checkpoint would hold both versions of every such key's metadata.
                boolean flag = journalFlag(f);
                metaState.update(f.meta.copy().withJournal(flag));
                f.storedJournalFlag(flag);
                f.metaDirty = false;
            }
            if (f.journaled() > 0) {
                journal.clear();
            }
            // A copy, Rice-coded in approximate mode: what state needs, read only at a load.
            f.drainDirty((id, page) -> pages.put(id, f.stored(id, page)));
            f.wroteWhole(config.pageJournalShare() > 0);
            metrics.pagesFlushed.inc(n);
            pagesWrittenSinceCompaction |= n > 0;
            switchBack(current);
            return n;
        }

        @Override
        public int flush(KeyFilter f) throws Exception {
            if (!f.mayJournal()) {
                return write(f);
            }
            int n = f.pendingCount();
            if (n == 0) {
                if (checkpointFlush && f.journalPastBound()) {
                    f.writeWholeSoon(); // its last batch passed the bound: as below
                }
                return 0; // stored pages and journal already hold what this copy holds
            }
            boolean first = f.journaled() == 0;
            byte[] element = f.takePending(config.pageJournalShare());
            if (element == null) {
                if (afterCheckpoint == null) {
                    return write(f);
                }
                // Written whole by the records after the checkpoint instead, and compacted in the
                // background well before the next one: this one then holds no superseded version.
                // A batch between checkpoints (FilterCache.JOURNAL_BATCH) that passes the bound
                // is journaled too, and the key written whole after the next checkpoint: written
                // whole now, its superseded pages would be in the next checkpoint.
                element = f.takePending(config.pageJournalShare(), true);
                if (checkpointFlush) {
                    f.writeWholeSoon();
                } else {
                    f.journaledPastBound();
                }
            }
            Object current = switchTo(f);
            if (first && !f.storedJournalFlag()) {
                // The first element since the last whole write: the stored metadata, which is
                // that of the stored pages, now says there is a journal to insert over them. Read
                // only when not known: a whole write from here stores the flag already, and the
                // read (a RocksDB get of every such key at every checkpoint) was in vain.
                FilterMeta stored = metaState.value();
                if (stored == null) { // not expected: a key in state was written whole before
                    switchBack(current);
                    return write(f);
                }
                if (!stored.journal) { // written whole with journals off, or by an older version
                    metaState.update(stored.withJournal(true));
                }
                f.storedJournalFlag(true);
            }
            journal.add(element);
            metrics.pageJournalEntries.inc(n);
            switchBack(current);
            return 0;
        }

        @Override
        public void insertAll(KeyFilter f, long[] his) throws Exception {
            Object current = switchTo(f);
            long loadsBefore = loader.loads();
            for (int j = 1, n = (int) his[0]; j <= n; j++) {
                insert(f, new Fingerprint(his[j], 0));
            }
            metrics.pagesLoaded.inc(loader.loads() - loadsBefore);
            switchBack(current);
        }

        /**
         * The journal flag a whole write stores: set if the key may journal after it, so that its
         * first element needs no metadata write. A flagged key with an empty journal reads it in
         * vain when loaded, once.
         */
        private boolean journalFlag(KeyFilter f) {
            return config.pageJournalShare() > 0 && f.meta.isFingerprints();
        }

        /** Makes {@code f}'s key the current key; returns the one to go back to, or null. */
        private Object switchTo(KeyFilter f) {
            Object current = getCurrentKey();
            if (current == null || !f.hasKey(current)) {
                setCurrentKey(f.key());
                return current;
            }
            return null;
        }

        private void switchBack(Object previous) {
            if (previous != null) {
                setCurrentKey(previous);
            }
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        if (afterCheckpointDue) { // not all written by the records since the last checkpoint
            writeWholeAfterCheckpoint(Integer.MAX_VALUE);
        }
        checkpointFlush = true;
        try {
            lastFlushPages = cache.flushAll();
        } finally {
            checkpointFlush = false;
        }
        cache.pack();
        afterCheckpointDue = afterCheckpoint != null;
        afterCheckpointBegun = false;
        lastCompactionMillis = 0;
        if (config.compactBeforeCheckpoint()
                && pagesWrittenSinceCompaction
                && getKeyedStateBackend() instanceof RocksDBKeyedStateBackend<?> rocksDb) {
            // Flink's RocksDB checkpoints are the SST files, superseded page versions included
            // (docs/design/state.md, "Checkpoints and compaction"): merged away here, before the
            // snapshot.
            long start = System.nanoTime();
            rocksDb.compactState(DedupState.bloomPages());
            lastCompactionMillis = (System.nanoTime() - start) / 1_000_000;
            pagesWrittenSinceCompaction = false;
        }
        longestNanosLastInterval = longestNanos;
        longestNanosEver = Math.max(longestNanosEver, longestNanos);
        longestNanos = 0;
        cachePeakBytesLastInterval = Math.max(cachePeakBytes, cache.takePeakBytes());
        cachePeakBytes = 0;
        long now = System.nanoTime();
        if (now - lastSummaryNanos >= SUMMARY_INTERVAL_NANOS) {
            lastSummaryNanos = now;
            LOG.info(
                    "Dedup subtask {}: checkpoint {} flushed {} dirty Bloom pages (compaction"
                            + " {} ms); page cache {} keys ({} packed), {} pages, {} bytes; since"
                            + " start {} packed keys unpacked, {} new URLs held beside packed"
                            + " keys, {}, {}"
                            + " first-seen{}, {} duplicates, {} Bloom pages loaded ({} fingerprint"
                            + " pages of the layout before the thirty-eighth session), {} exact-store"
                            + " reads, {} fingerprints journaled, {} replayed from journals; {}"
                            + " keys written whole after a checkpoint, {} compactions after"
                            + " checkpoints asked for (the last took {} ms)",
                    getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    checkpointId,
                    lastFlushPages,
                    lastCompactionMillis,
                    cache.keys(),
                    cache.packedKeys(),
                    cache.pages(),
                    cache.bytes(),
                    cache.unpacks(),
                    cache.heldInserts(),
                    cache.arenaSummary(),
                    metrics.firstSeen.getCount(),
                    exact == null
                            ? String.format(
                                    Locale.ROOT,
                                    " (%.1f new URLs expected dropped as false positives;"
                                            + " %d keys converted from exact mode)",
                                    expectedFalsePositives,
                                    metrics.exactKeysConverted.getCount())
                            : "",
                    metrics.duplicates.getCount(),
                    metrics.pagesLoaded.getCount(),
                    loader.formerLayoutReads(),
                    metrics.l3Reads.getCount(),
                    metrics.pageJournalEntries.getCount(),
                    metrics.pageJournalReplayed.getCount(),
                    keysWrittenAfterCheckpoint,
                    compactionsAfterCheckpoint,
                    lastCompactionAfterMillis);
            long records = metrics.firstSeen.getCount() + metrics.duplicates.getCount();
            long loaded = metrics.pagesLoaded.getCount();
            // The first interval after a start or restore loads every key's pages once: not judged.
            if (recordsAtSummary >= 0
                    && thrashing(loaded - loadedAtSummary, records - recordsAtSummary)) {
                LOG.warn(
                        "Dedup subtask {}: {} filter pages loaded from state for {} records since"
                                + " the last summary: the page cache ({} bytes for {} keys) is"
                                + " smaller than the pages of the keys in use. Raise"
                                + " taskmanager.memory.task.heap.size (the cache takes"
                                + " dedup.bloom.cache-heap-fraction of a slot's share) or set"
                                + " dedup.bloom.cache-size: keys in fingerprint pages need about"
                                + " 7 bytes per URL (scripts/size).",
                        getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                        loaded - loadedAtSummary,
                        records - recordsAtSummary,
                        cache.bytes(),
                        cache.keys());
            }
            loadedAtSummary = loaded;
            recordsAtSummary = records;
        }
    }

    /** Fingerprint pages of the layout before the thirty-eighth session read since the start. */
    long formerLayoutPagesRead() {
        return loader.formerLayoutReads();
    }

    /**
     * Whether a summary interval's page loads say the cache is too small: more than 0.2 pages per
     * record (the threshold of the {@code FirstSeenBloomCacheThrashing} alert) over at least 10,000
     * records.
     */
    static boolean thrashing(long pagesLoaded, long records) {
        return records >= 10_000 && pagesLoaded > records / 5;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        if (afterCheckpointDue && !afterCheckpointBegun) { // no record came since: an idle input
            writeWholeAfterCheckpoint(Integer.MAX_VALUE);
        }
    }

    /**
     * After a checkpoint (dedup.rocksdb.compact-after-checkpoint): writes whole the keys whose
     * journal passed its bound at it (the checkpoint holds them with their journal), about {@code
     * pageBudget} pages a call, so that no record pays for all of them; once none is left, and if
     * state was written since the last compaction, has the background thread compact the filter's
     * column families, so that the old versions of their pages and journals, and of every page the
     * checkpoint's flush rewrote, are gone before the next checkpoint copies the SST files. That
     * compaction takes the place of RocksDB's level-0 trigger of 1 ({@link
     * dev.firstseen.config.SeenSetRocksDBOptions} leaves RocksDB's own with this option).
     */
    private void writeWholeAfterCheckpoint(int pageBudget) throws Exception {
        keysWrittenAfterCheckpoint += cache.writeWholeSoon(pageBudget);
        if (cache.wholeSoonLeft()) {
            return; // the next record goes on
        }
        afterCheckpointDue = false;
        long written = metrics.pagesFlushed.getCount() + metrics.pageJournalEntries.getCount();
        if (written != writtenAtCompaction) {
            writtenAtCompaction = written;
            compactAfterCheckpoint(afterCheckpoint);
        }
    }

    /**
     * Compacts the filter's column families in the background thread, or, if a compaction runs
     * there, has it compact once more when it ends: a compaction that started before these writes
     * may not hold them ({@code compactState} flushes the memtable when it starts).
     */
    private void compactAfterCheckpoint(RocksDBKeyedStateBackend<?> rocksDb) {
        compactionsAfterCheckpoint++;
        if (compactionRequests.getAndIncrement() > 0) {
            return; // the running compaction sees the count change and runs once more
        }
        if (compactor == null) {
            compactor =
                    Executors.newSingleThreadExecutor(
                            r -> {
                                Thread t = new Thread(r, "firstseen-compact-after-checkpoint");
                                t.setDaemon(true);
                                return t;
                            });
        }
        compaction =
                compactor.submit(
                        () -> {
                            int requests;
                            do {
                                requests = compactionRequests.get();
                                long start = System.nanoTime();
                                try {
                                    rocksDb.compactState(DedupState.bloomPages());
                                    rocksDb.compactState(DedupState.pageJournal());
                                    rocksDb.compactState(DedupState.bloomMeta());
                                } catch (Exception e) {
                                    LOG.warn("Compaction after a checkpoint failed", e);
                                }
                                lastCompactionAfterMillis = (System.nanoTime() - start) / 1_000_000;
                            } while (!compactionRequests.compareAndSet(requests, 0));
                        });
    }

    @Override
    public void close() throws Exception {
        try {
            // RocksDB must not be closed under a running compaction, even if this task is being
            // cancelled: one compaction of the filter's column families takes seconds at most.
            boolean interrupted = false;
            while (compaction != null && !compaction.isDone()) {
                try {
                    compaction.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        } finally {
            if (compactor != null) {
                compactor.shutdownNow();
            }
            super.close();
        }
    }

    @Override
    public void finish() throws Exception {
        RuntimeContext ctx = getRuntimeContext();
        long bytes = 0;
        long pageBytes = 0;
        long keys = 0;
        if (cache != null) { // null if open() failed, e.g. on a refused restore
            if (afterCheckpointDue) {
                writeWholeAfterCheckpoint(Integer.MAX_VALUE);
            }
            cache.flushAll();
            // As after a checkpoint's flush, so that the figures compare; hot keys too, as no
            // more records come.
            cache.packAll();
            bytes = cache.bytes();
            pageBytes = cache.pageBytes();
            keys = cache.keys();
        }
        ctx.addAccumulator(FirstSeenMetrics.FILTER_BYTES_AT_END, new LongCounter(bytes));
        ctx.addAccumulator(FirstSeenMetrics.FILTER_PAGE_BYTES_AT_END, new LongCounter(pageBytes));
        ctx.addAccumulator(FirstSeenMetrics.FILTER_KEYS_AT_END, new LongCounter(keys));
        ctx.addAccumulator(
                FirstSeenMetrics.EXPECTED_FALSE_POSITIVES,
                new DoubleCounter(expectedFalsePositives));
        ctx.addAccumulator(
                FirstSeenMetrics.LONGEST_RECORD_MICROS,
                new LongMaximum(Math.max(longestNanosEver, longestNanos) / 1000));
        ctx.addAccumulator(
                FirstSeenMetrics.LONGEST_REBUILD_MICROS,
                new LongMaximum(longestRebuildNanos / 1000));
        super.finish();
    }

    /** The {@link FirstSeenMetrics#EXPECTED_FALSE_POSITIVES} gauge's value. */
    public double expectedFalsePositives() {
        return expectedFalsePositives;
    }

    /** Heap held by the filter cache now (the {@code filterCacheBytes} gauge). */
    public long filterCacheBytes() {
        return cache.bytes();
    }

    /**
     * The {@link FirstSeenMetrics#FILTER_CACHE_PEAK_BYTES} gauge's value: the most heap the filter
     * cache held at once from the checkpoint flush before last to the end of the last one.
     */
    public long filterCachePeakBytesLastInterval() {
        return cachePeakBytesLastInterval;
    }

    /** Bytes of the cached filter pages alone, without per-key objects (walks every page). */
    public long filterPageBytes() {
        return cache.pageBytes();
    }

    /** {@link FilterCache#composition()}, for the subtask simulation. */
    public String filterCacheComposition() {
        return cache.composition();
    }

    /** {@link FilterCache#arenaSummary()}, for the subtask simulation. */
    public String filterArenaSummary() {
        return cache.arenaSummary();
    }

    /** Keys the filter cache holds packed (the {@code filterCachePackedKeys} gauge). */
    public int filterPackedKeys() {
        return cache.packedKeys();
    }

    /** Rebuilds queued or under way (the {@code filterRebuildsPending} gauge). */
    int pendingRebuilds() {
        return rebuilds.size();
    }

    /** URLs of converted exact keys that went in by merges, for tests. */
    long urlsConvertedByMerges() {
        return urlsConvertedByMerges;
    }

    /** The page cache, for tests. */
    FilterCache cache() {
        return cache;
    }

    /** Sets the pages a record writes whole at most after a checkpoint, for tests. */
    void wholePagesPerRecord(int pages) {
        wholePagesPerRecord = pages;
    }

    /** Keys written whole after a checkpoint instead of at it, for tests. */
    long keysWrittenAfterCheckpoint() {
        return keysWrittenAfterCheckpoint;
    }

    /** Background compactions asked for after checkpoints, for tests. */
    long compactionsAfterCheckpoint() {
        return compactionsAfterCheckpoint;
    }

    /**
     * Waits for the background compaction after the last checkpoint, if one runs: for tests, and
     * for the subtask simulation, which feeds a checkpoint interval in far less time than a job's.
     */
    public void awaitCompaction() throws Exception {
        if (compaction != null) {
            compaction.get();
        }
    }
}
