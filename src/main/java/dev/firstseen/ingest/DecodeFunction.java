package dev.firstseen.ingest;

import dev.firstseen.metrics.DeadLetterCounters;
import dev.firstseen.metrics.FirstSeenMetrics;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.RawRecord;
import dev.firstseen.record.UrlMessage;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Stage "ingest": raw Kafka values to {@link UrlMessage}s; anything unreadable goes to {@link
 * DeadLetter#TAG} with its reason. Never throws on input.
 */
public class DecodeFunction extends ProcessFunction<RawRecord, UrlMessage> {
    private static final long serialVersionUID = 1L;

    private final MessageDecoder decoder;
    private final int maxDeadLetterRawBytes;
    private transient Counter recordsIn;
    private transient Counter metaOmitted;
    private transient DeadLetterCounters deadLetters;

    public DecodeFunction(MessageDecoder decoder, int maxDeadLetterRawBytes) {
        this.decoder = decoder;
        this.maxDeadLetterRawBytes = maxDeadLetterRawBytes;
    }

    @Override
    public void open(OpenContext openContext) {
        var group = getRuntimeContext().getMetricGroup();
        recordsIn =
                FirstSeenMetrics.counter(
                        getRuntimeContext(),
                        group.addGroup(FirstSeenMetrics.GROUP),
                        FirstSeenMetrics.RECORDS_IN,
                        FirstSeenMetrics.RECORDS_IN);
        metaOmitted =
                FirstSeenMetrics.counter(
                        getRuntimeContext(),
                        group.addGroup(FirstSeenMetrics.GROUP),
                        FirstSeenMetrics.META_OMITTED,
                        FirstSeenMetrics.META_OMITTED);
        deadLetters = new DeadLetterCounters(getRuntimeContext(), group, "ingest");
    }

    @Override
    public void processElement(RawRecord in, Context ctx, Collector<UrlMessage> out) {
        recordsIn.inc();
        MessageDecoder.Decoded d = decoder.decode(in.value);
        if (d.reason != null) {
            deadLetters.inc(d.reason);
            ctx.output(
                    DeadLetter.TAG, DeadLetter.of(in, d.reason, d.detail, maxDeadLetterRawBytes));
            return;
        }
        UrlMessage m = new UrlMessage(d.url, d.metaJson, in.source);
        m.op = d.op;
        m.opKey = d.opKey;
        m.revisitAfterMillis = d.revisitAfterMillis;
        if (d.metaOmitted) {
            m.metaOmitted = true;
            metaOmitted.inc();
        }
        out.collect(m);
    }
}
