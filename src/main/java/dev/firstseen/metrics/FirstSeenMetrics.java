package dev.firstseen.metrics;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * Names and registration of FirstSeen's counters. Each counter is a Flink metric, under the
 * operator's group {@code firstseen} (web UI, Prometheus). Unless the global job parameter {@link
 * #ACCUMULATORS_PARAMETER} is {@code false}, it is also an accumulator of the same name, so that a
 * finished bounded run can print its totals from the job result. The job turns accumulators off for
 * unbounded input (option {@code metrics.accumulators}): they would travel to the JobManager with
 * every heartbeat for the job's whole life and tell nothing the metrics do not.
 */
public final class FirstSeenMetrics {
    private FirstSeenMetrics() {}

    public static final String GROUP = "firstseen";

    public static final String RECORDS_IN = "recordsIn";
    public static final String FIRST_SEEN = "firstSeen";
    public static final String DUPLICATES = "duplicates";
    public static final String DEAD_LETTERS = "deadLetters";
    public static final String META_OMITTED = "metaOmitted";
    public static final String L1_HITS = "l1Hits";
    public static final String L2_DEFINITELY_NEW = "l2DefinitelyNew";
    public static final String L2_MAYBE = "l2Maybe";
    public static final String L3_READS = "l3Reads";
    public static final String FALSE_POSITIVES_CAUGHT = "falsePositivesCaught";
    public static final String PAGES_FLUSHED = "pagesFlushed";
    public static final String PAGES_LOADED = "pagesLoaded";
    public static final String PAGE_JOURNAL_ENTRIES = "pageJournalEntries";
    public static final String PAGE_JOURNAL_REPLAYED = "pageJournalReplayed";
    public static final String EXACT_KEYS_CONVERTED = "exactKeysConverted";
    public static final String FILTER_REBUILDS = "filterRebuilds";
    public static final String FILTER_REBUILD_READS = "filterRebuildReads";

    /** Gauge: rebuilds queued or under way, spread over records (exact mode). */
    public static final String FILTER_REBUILDS_PENDING = "filterRebuildsPending";

    /**
     * Gauge: the longest time one input record took in the dedup operator in the last checkpoint
     * interval, in µs; also an accumulator, the longest over the job.
     */
    public static final String LONGEST_RECORD_MICROS = "longestRecordMicros";

    /**
     * Gauge and accumulator: the longest time filter rebuilds took inside one input record since
     * the operator started, in µs (exact mode).
     */
    public static final String LONGEST_REBUILD_MICROS = "longestRebuildMicros";

    /**
     * Gauge, and accumulator at the end of a bounded run: approximate mode's expected number of new
     * URLs dropped as false positives since the subtask started, from the rate each new URL met in
     * its key's fingerprint classes; keys on a Bloom chain and exact mode add nothing.
     */
    public static final String EXPECTED_FALSE_POSITIVES = "expectedFalsePositives";

    /**
     * Gauge: the most heap the dedup subtask's filter cache held at once in the last checkpoint
     * interval, from one checkpoint's flush to the end of the next, in bytes: after each record,
     * and within one as the cache's arena and tables grow (a compaction's copies beside the chunks
     * it has yet to release). Compare with {@code filterCacheBudgetBytes} and the task heap.
     */
    public static final String FILTER_CACHE_PEAK_BYTES = "filterCachePeakBytes";

    public static final String FILTER_SATURATED = "filterSaturated";
    public static final String REVISITS = "revisits";
    public static final String EXPIRED = "expired";
    public static final String OPS_FORCED = "opsForced";
    public static final String OPS_MARKED_SEEN = "opsMarkedSeen";
    public static final String OPS_FORGOTTEN = "opsForgotten";
    public static final String OPS_KEYS_FORGOTTEN = "opsKeysForgotten";
    public static final String OPS_FORGET_UNSUPPORTED = "opsForgetUnsupported";

    /** Accumulator only: heap held by the Bloom page cache when a bounded run finished. */
    public static final String FILTER_BYTES_AT_END = "filterBytesAtEnd";

    /**
     * Accumulator only: of {@link #FILTER_BYTES_AT_END}, the bytes of the Bloom pages themselves;
     * the rest is per-key bookkeeping (page tables and an estimate of the objects per key).
     */
    public static final String FILTER_PAGE_BYTES_AT_END = "filterPageBytesAtEnd";

    /** Accumulator only: keys whose filters were in the page cache when a bounded run finished. */
    public static final String FILTER_KEYS_AT_END = "filterKeysAtEnd";

    /** Accumulator name of the dead-letter counter for one reason code and stage. */
    public static String deadLetterAccumulator(String reasonCode, String stage) {
        return DEAD_LETTERS + "." + reasonCode + "." + stage;
    }

    /** Global job parameter: {@code false} registers counters as metrics only. */
    public static final String ACCUMULATORS_PARAMETER = "firstseen.metrics.accumulators";

    /**
     * Registers a counter as a metric in {@code group} and, unless the job turned accumulators off,
     * an accumulator named {@code name}.
     */
    public static Counter counter(
            RuntimeContext ctx, MetricGroup group, String metric, String name) {
        if ("false".equals(ctx.getGlobalJobParameters().get(ACCUMULATORS_PARAMETER))) {
            return group.counter(metric);
        }
        LongCounter acc = new LongCounter();
        ctx.addAccumulator(name, acc);
        return group.counter(metric, new AccumulatingCounter(acc));
    }

    /** A Flink {@link Counter} whose value lives in an accumulator. */
    private static final class AccumulatingCounter implements Counter {
        private final LongCounter acc;

        AccumulatingCounter(LongCounter acc) {
            this.acc = acc;
        }

        @Override
        public void inc() {
            acc.add(1L);
        }

        @Override
        public void inc(long n) {
            acc.add(n);
        }

        @Override
        public void dec() {
            acc.add(-1L);
        }

        @Override
        public void dec(long n) {
            acc.add(-n);
        }

        @Override
        public long getCount() {
            return acc.getLocalValue();
        }
    }
}
