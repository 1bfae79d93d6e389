package dev.firstseen.canonical;

import dev.firstseen.emit.DeadLetter;
import dev.firstseen.emit.DeadLetterReason;
import dev.firstseen.ingest.RawRecord;
import dev.firstseen.ingest.UrlMessage;
import dev.firstseen.keying.PartitionKeyer;
import dev.firstseen.metrics.DeadLetterCounters;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Stages "canonical" and "keying": canonicalizes each URL and attaches its partition key. URLs the
 * canonicalizer rejects go to {@link DeadLetter#TAG} with the original message as raw value.
 */
public class CanonicalizeFunction extends ProcessFunction<UrlMessage, CanonicalUrl> {
    private static final long serialVersionUID = 1L;

    private final Canonicalizer canonicalizer;
    private final PartitionKeyer keyer;
    private final int maxDeadLetterRawBytes;
    private transient DeadLetterCounters deadLetters;

    public CanonicalizeFunction(
            Canonicalizer canonicalizer, PartitionKeyer keyer, int maxDeadLetterRawBytes) {
        this.canonicalizer = canonicalizer;
        this.keyer = keyer;
        this.maxDeadLetterRawBytes = maxDeadLetterRawBytes;
    }

    @Override
    public void open(OpenContext openContext) {
        deadLetters =
                new DeadLetterCounters(
                        getRuntimeContext(), getRuntimeContext().getMetricGroup(), "canonical");
    }

    @Override
    public void processElement(UrlMessage in, Context ctx, Collector<CanonicalUrl> out) {
        Canonicalization c = canonicalizer.canonicalize(in.url);
        if (!c.isAccepted()) {
            DeadLetterReason reason = c.reason();
            deadLetters.inc(reason);
            RawRecord raw =
                    new RawRecord(
                            in.url.getBytes(StandardCharsets.UTF_8),
                            in.topic,
                            in.partition,
                            in.offset,
                            in.timestamp);
            ctx.output(
                    DeadLetter.TAG, DeadLetter.of(raw, reason, c.detail(), maxDeadLetterRawBytes));
            return;
        }
        out.collect(
                new CanonicalUrl(
                        in.url,
                        c.url(),
                        keyer.keyOf(c),
                        in.metaJson,
                        in.topic,
                        in.partition,
                        in.offset));
    }
}
