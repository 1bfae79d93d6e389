package dev.firstseen.dedup;

import dev.firstseen.canonical.CanonicalUrl;
import dev.firstseen.emit.FrontierRecord;
import dev.firstseen.metrics.FirstSeenMetrics;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.base.IntSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
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
        implements OneInputStreamOperator<CanonicalUrl, FrontierRecord> {
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
     *  L3  MapState<Fingerprint, Long> ("seen"): the exact set, first-seen millis as value.
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
     */

    private final DedupConfig config;

    private transient MapState<Integer, byte[]> pages;
    private transient ValueState<FilterMeta> metaState;
    private transient MapState<Fingerprint, Long> seen;
    private transient ListState<String> settingsState;

    private transient LinkedHashMap<Object, KeyFilter> cache;
    private transient List<KeyFilter> dirtyQueue;
    private transient long cacheBytes;
    private transient RecentFingerprintCache recent;
    private transient long[] pageLoads;
    private transient KeyFilter.PageLoader loader;
    private transient long lastFlushPages;
    private transient long lastSummaryNanos;

    /** The state summary in the log comes at most this often per subtask (at a checkpoint). */
    private static final long SUMMARY_INTERVAL_NANOS = 60_000_000_000L;

    /* Own logger: AbstractStreamOperator's would name every line after the base class. */
    private static final Logger LOG = LoggerFactory.getLogger(DedupOperator.class);

    private transient Counter firstSeen;
    private transient Counter duplicates;
    private transient Counter l1Hits;
    private transient Counter l2DefinitelyNew;
    private transient Counter l2Maybe;
    private transient Counter l3Reads;
    private transient Counter falsePositivesCaught;
    private transient Counter pagesFlushed;
    private transient Counter pagesLoaded;
    private transient Counter filterRebuilds;
    private transient Counter filterRebuildReads;

    /** A rebuild that reads at least this many fingerprints is logged at INFO with its duration. */
    private static final long LOG_REBUILDS_FROM = 1_000_000;

    public DedupOperator(DedupConfig config) {
        this.config = config;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        settingsState =
                context.getOperatorStateStore()
                        .getUnionListState(
                                new ListStateDescriptor<>("firstseen-settings", Types.STRING));
        if (context.isRestored()) {
            Map<String, String> previous = SettingsGuard.decode(settingsState.get());
            List<String> problems = SettingsGuard.check(previous, config.guarded);
            if (!problems.isEmpty() && !config.allowGuardedChange) {
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
                    config.guarded);
        }
        settingsState.update(SettingsGuard.encode(config.guarded));
    }

    @Override
    public void open() throws Exception {
        super.open();
        pages =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "bloom-pages",
                                        IntSerializer.INSTANCE,
                                        BytePrimitiveArraySerializer.INSTANCE));
        metaState =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "bloom-meta", FilterMetaSerializer.INSTANCE));
        if (config.mode == DedupMode.EXACT) {
            seen =
                    getRuntimeContext()
                            .getMapState(
                                    new MapStateDescriptor<>(
                                            "seen",
                                            FingerprintSerializer.INSTANCE,
                                            LongSerializer.INSTANCE));
        }
        cache = new LinkedHashMap<>(1024, 0.75f, true);
        dirtyQueue = new ArrayList<>();
        recent = new RecentFingerprintCache(config.recentCacheEntries);
        lastSummaryNanos = System.nanoTime() - SUMMARY_INTERVAL_NANOS; // first checkpoint logs
        pageLoads = new long[1];
        loader = pages::get;
        registerMetrics();
        BloomLayer first = newFilter().layer(0);
        LOG.info(
                "Dedup mode {}: Bloom filter per key starts at {} URLs, {} bytes ({}), target"
                        + " rate {}, grows by {}; filter cache {} bytes; L1 {} entries",
                config.mode,
                config.expectedUrlsPerKey,
                first.totalBytes(),
                first,
                config.falsePositiveRate,
                config.mode == DedupMode.EXACT ? "rebuilding from the exact store" : "layers",
                config.filterCacheBytes,
                recent.capacity());
    }

    private void registerMetrics() {
        MetricGroup g = getMetricGroup().addGroup(FirstSeenMetrics.GROUP);
        firstSeen = counter(g, FirstSeenMetrics.FIRST_SEEN);
        duplicates = counter(g, FirstSeenMetrics.DUPLICATES);
        l1Hits = counter(g, FirstSeenMetrics.L1_HITS);
        l2DefinitelyNew = counter(g, FirstSeenMetrics.L2_DEFINITELY_NEW);
        l2Maybe = counter(g, FirstSeenMetrics.L2_MAYBE);
        l3Reads = counter(g, FirstSeenMetrics.L3_READS);
        falsePositivesCaught = counter(g, FirstSeenMetrics.FALSE_POSITIVES_CAUGHT);
        pagesFlushed = counter(g, FirstSeenMetrics.PAGES_FLUSHED);
        pagesLoaded = counter(g, FirstSeenMetrics.PAGES_LOADED);
        filterRebuilds = counter(g, FirstSeenMetrics.FILTER_REBUILDS);
        filterRebuildReads = counter(g, FirstSeenMetrics.FILTER_REBUILD_READS);
        g.gauge("filterCacheBytes", (Gauge<Long>) this::filterCacheBytes);
        g.gauge("filterCacheKeys", (Gauge<Integer>) () -> cache.size());
        g.gauge("filterCachePages", (Gauge<Long>) this::cachedPages);
        g.gauge("pagesFlushedLastCheckpoint", (Gauge<Long>) () -> lastFlushPages);
    }

    private Counter counter(MetricGroup g, String name) {
        return FirstSeenMetrics.counter(getRuntimeContext(), g, name, name);
    }

    @Override
    public void processElement(StreamRecord<CanonicalUrl> element) throws Exception {
        CanonicalUrl in = element.getValue();
        Fingerprint fp = Fingerprint.of(in.canonical);
        if (recent.contains(fp)) {
            l1Hits.inc();
            duplicates.inc();
            return;
        }
        KeyFilter filter = filterOf(getCurrentKey());
        long bytesBefore = filter.bytes();
        long loadsBefore = pageLoads[0];

        boolean isNew;
        if (!filter.mightContain(fp, loader, pageLoads)) {
            l2DefinitelyNew.inc();
            isNew = true;
        } else {
            l2Maybe.inc();
            if (config.mode == DedupMode.APPROXIMATE) {
                isNew = false;
            } else {
                l3Reads.inc();
                isNew = !seen.contains(fp);
                if (isNew) {
                    falsePositivesCaught.inc();
                }
            }
        }

        if (isNew) {
            long now = getProcessingTimeService().getCurrentProcessingTime();
            insert(filter, fp);
            if (seen != null) {
                seen.put(fp, now);
            }
            firstSeen.inc();
            output.collect(
                    element.replace(
                            new FrontierRecord(
                                    in.url,
                                    in.canonical,
                                    in.key,
                                    now,
                                    in.metaJson,
                                    in.topic,
                                    in.partition,
                                    in.offset)));
        } else {
            duplicates.inc();
        }
        recent.add(fp);

        pagesLoaded.inc(pageLoads[0] - loadsBefore);
        cacheBytes += filter.bytes() - bytesBefore;
        if (cacheBytes > config.filterCacheBytes) {
            evict(filter);
        }
    }

    private KeyFilter filterOf(Object key) throws Exception {
        KeyFilter f = cache.get(key);
        if (f == null) {
            FilterMeta stored = metaState.value();
            boolean isNew = stored == null;
            FilterMeta meta = isNew ? newFilter() : stored.copy();
            f = new KeyFilter(key, meta, isNew);
            cache.put(key, f);
            cacheBytes += f.bytes();
            if (isNew) {
                queueDirty(f);
            }
        }
        return f;
    }

    private FilterMeta newFilter() {
        return config.mode == DedupMode.EXACT
                ? FilterMeta.createSingle(config.expectedUrlsPerKey, config.falsePositiveRate)
                : FilterMeta.create(config.expectedUrlsPerKey, config.falsePositiveRate);
    }

    private void insert(KeyFilter f, Fingerprint fp) throws Exception {
        if (seen != null && f.meta.isFull()) {
            rebuild(f);
        }
        if (f.insert(fp, loader, pageLoads)) {
            LOG.debug("Bloom filter of key {} grew to {}", f.key, f.meta);
        }
        queueDirty(f);
    }

    /**
     * Exact mode's growth: replaces the current key's filter with one layer for twice its URLs,
     * filled from L3. Also turns a multi-layer filter written by an older version into one layer.
     */
    private void rebuild(KeyFilter f) throws Exception {
        long start = System.nanoTime();
        long before = f.meta.count();
        BloomLayer layer =
                BloomLayer.sized(
                        BloomMath.rebuildCapacity(f.meta.initialCapacity, before),
                        f.meta.targetFpp,
                        BloomMath.EXACT_FROM_FILL);
        pages.clear(); // the current key is f's key: insert() runs for the record's own key
        long read = f.rebuild(layer, seen.keys());
        filterRebuilds.inc();
        filterRebuildReads.inc(read);
        if (read >= LOG_REBUILDS_FROM || read != before) {
            LOG.info(
                    "Bloom filter of key {} rebuilt from {} exact-store entries (filter counted {})"
                            + " into {} in {} ms",
                    f.key,
                    read,
                    before,
                    layer,
                    (System.nanoTime() - start) / 1_000_000);
        }
    }

    private void queueDirty(KeyFilter f) {
        if (!f.queuedForFlush) {
            f.queuedForFlush = true;
            dirtyQueue.add(f);
        }
    }

    /** Evicts least recently used keys other than {@code keep} down to 90% of the budget. */
    private void evict(KeyFilter keep) throws Exception {
        long target = config.filterCacheBytes / 10 * 9;
        Iterator<KeyFilter> it = cache.values().iterator();
        while (cacheBytes > target && it.hasNext()) {
            KeyFilter f = it.next();
            if (f == keep) {
                continue;
            }
            if (f.isDirty()) {
                flush(f);
            }
            it.remove();
            cacheBytes -= f.bytes();
            f.release();
        }
    }

    /** Writes a filter's dirty metadata and pages to keyed state under its own key. */
    private int flush(KeyFilter f) throws Exception {
        Object current = getCurrentKey();
        boolean switchKey = current == null || !current.equals(f.key);
        if (switchKey) {
            setCurrentKey(f.key);
        }
        int n = f.dirtyPages();
        if (f.metaDirty) {
            metaState.update(f.meta.copy());
            f.metaDirty = false;
        }
        // A copy: a heap state backend keeps the object, and we go on changing ours.
        f.drainDirty((id, page) -> pages.put(id, page.clone()));
        pagesFlushed.inc(n);
        if (switchKey && current != null) {
            setCurrentKey(current);
        }
        return n;
    }

    private void flushAll() throws Exception {
        if (dirtyQueue == null) {
            return; // never opened
        }
        long n = 0;
        for (KeyFilter f : dirtyQueue) {
            f.queuedForFlush = false;
            if (f.isDirty()) {
                n += flush(f);
            }
        }
        dirtyQueue.clear();
        lastFlushPages = n;
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        flushAll();
        long now = System.nanoTime();
        if (now - lastSummaryNanos >= SUMMARY_INTERVAL_NANOS) {
            lastSummaryNanos = now;
            LOG.info(
                    "Dedup subtask {}: checkpoint {} flushed {} dirty Bloom pages; page cache {}"
                            + " keys, {} pages, {} bytes; since start {} first-seen, {}"
                            + " duplicates, {} Bloom pages loaded, {} exact-store reads",
                    getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    checkpointId,
                    lastFlushPages,
                    cache.size(),
                    cachedPages(),
                    cacheBytes,
                    firstSeen.getCount(),
                    duplicates.getCount(),
                    pagesLoaded.getCount(),
                    l3Reads.getCount());
        }
    }

    @Override
    public void finish() throws Exception {
        flushAll();
        long pageBytes = 0;
        long keys = 0;
        if (cache != null) { // null if open() failed, e.g. on a refused restore
            for (KeyFilter f : cache.values()) {
                pageBytes += f.pageBytes();
            }
            keys = cache.size();
        }
        RuntimeContext ctx = getRuntimeContext();
        ctx.addAccumulator(FirstSeenMetrics.FILTER_BYTES_AT_END, new LongCounter(cacheBytes));
        ctx.addAccumulator(FirstSeenMetrics.FILTER_PAGE_BYTES_AT_END, new LongCounter(pageBytes));
        ctx.addAccumulator(FirstSeenMetrics.FILTER_KEYS_AT_END, new LongCounter(keys));
        super.finish();
    }

    /** Heap held by the Bloom page cache now (the {@code filterCacheBytes} gauge). */
    long filterCacheBytes() {
        return cacheBytes;
    }

    private long cachedPages() {
        long n = 0;
        for (KeyFilter f : cache.values()) {
            n += f.loadedPages();
        }
        return n;
    }
}
