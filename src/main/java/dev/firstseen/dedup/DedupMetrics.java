package dev.firstseen.dedup;

import dev.firstseen.metrics.FirstSeenMetrics;
import java.util.function.Supplier;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/** The dedup operator's counters and gauges, registered under the group {@code firstseen}. */
final class DedupMetrics {
    final Counter firstSeen;
    final Counter duplicates;
    final Counter l1Hits;
    final Counter l2DefinitelyNew;
    final Counter l2Maybe;
    final Counter l3Reads;
    final Counter falsePositivesCaught;
    final Counter pagesFlushed;
    final Counter pagesLoaded;
    final Counter pageJournalEntries;
    final Counter pageJournalReplayed;
    final Counter exactKeysConverted;
    final Counter filterRebuilds;
    final Counter filterRebuildReads;
    final Counter filterSaturated;
    final Counter revisits;
    final Counter expired;
    final Counter opsForced;
    final Counter opsMarkedSeen;
    final Counter opsForgotten;
    final Counter opsForgetUnsupported;
    final Counter opsKeysForgotten;
    private final MetricGroup group;

    DedupMetrics(RuntimeContext ctx, MetricGroup operatorGroup) {
        group = operatorGroup.addGroup(FirstSeenMetrics.GROUP);
        firstSeen = counter(ctx, FirstSeenMetrics.FIRST_SEEN);
        duplicates = counter(ctx, FirstSeenMetrics.DUPLICATES);
        l1Hits = counter(ctx, FirstSeenMetrics.L1_HITS);
        l2DefinitelyNew = counter(ctx, FirstSeenMetrics.L2_DEFINITELY_NEW);
        l2Maybe = counter(ctx, FirstSeenMetrics.L2_MAYBE);
        l3Reads = counter(ctx, FirstSeenMetrics.L3_READS);
        falsePositivesCaught = counter(ctx, FirstSeenMetrics.FALSE_POSITIVES_CAUGHT);
        pagesFlushed = counter(ctx, FirstSeenMetrics.PAGES_FLUSHED);
        pagesLoaded = counter(ctx, FirstSeenMetrics.PAGES_LOADED);
        pageJournalEntries = counter(ctx, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES);
        pageJournalReplayed = counter(ctx, FirstSeenMetrics.PAGE_JOURNAL_REPLAYED);
        exactKeysConverted = counter(ctx, FirstSeenMetrics.EXACT_KEYS_CONVERTED);
        filterRebuilds = counter(ctx, FirstSeenMetrics.FILTER_REBUILDS);
        filterRebuildReads = counter(ctx, FirstSeenMetrics.FILTER_REBUILD_READS);
        filterSaturated = counter(ctx, FirstSeenMetrics.FILTER_SATURATED);
        revisits = counter(ctx, FirstSeenMetrics.REVISITS);
        expired = counter(ctx, FirstSeenMetrics.EXPIRED);
        opsForced = counter(ctx, FirstSeenMetrics.OPS_FORCED);
        opsMarkedSeen = counter(ctx, FirstSeenMetrics.OPS_MARKED_SEEN);
        opsForgotten = counter(ctx, FirstSeenMetrics.OPS_FORGOTTEN);
        opsKeysForgotten = counter(ctx, FirstSeenMetrics.OPS_KEYS_FORGOTTEN);
        opsForgetUnsupported = counter(ctx, FirstSeenMetrics.OPS_FORGET_UNSUPPORTED);
    }

    private Counter counter(RuntimeContext ctx, String name) {
        return FirstSeenMetrics.counter(ctx, group, name, name);
    }

    <T> void gauge(String name, Supplier<T> value) {
        group.gauge(name, (Gauge<T>) value::get);
    }
}
