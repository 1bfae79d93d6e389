package dev.firstseen.metrics;

import dev.firstseen.record.DeadLetterReason;
import java.util.EnumMap;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * Dead-letter counters of one stage, one per reason, created on first use: labelled {@code
 * reason=<code>} in the metric system and named {@code deadLetters.<code>.<stage>} as accumulators
 * (chained stages share one accumulator namespace, so the stage is part of the name).
 */
public final class DeadLetterCounters {
    private final EnumMap<DeadLetterReason, Counter> counters =
            new EnumMap<>(DeadLetterReason.class);
    private final RuntimeContext ctx;
    private final MetricGroup group;
    private final String stage;

    public DeadLetterCounters(RuntimeContext ctx, MetricGroup operatorGroup, String stage) {
        this.ctx = ctx;
        this.group = operatorGroup.addGroup(FirstSeenMetrics.GROUP);
        this.stage = stage;
    }

    public void inc(DeadLetterReason reason) {
        Counter c = counters.get(reason);
        if (c == null) {
            c =
                    FirstSeenMetrics.counter(
                            ctx,
                            group.addGroup("reason", reason.code()),
                            FirstSeenMetrics.DEAD_LETTERS,
                            FirstSeenMetrics.deadLetterAccumulator(reason.code(), stage));
            counters.put(reason, c);
        }
        c.inc();
    }
}
