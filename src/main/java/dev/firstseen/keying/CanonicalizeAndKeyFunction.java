package dev.firstseen.keying;

import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.metrics.DeadLetterCounters;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.DeadLetterReason;
import dev.firstseen.record.UrlMessage;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Stages "canonical" and "keying" as one operator: canonicalizes each URL and attaches its
 * partition key. URLs the canonicalizer rejects go to {@link DeadLetter#TAG} with the URL taken
 * from the message as raw value.
 */
public class CanonicalizeAndKeyFunction extends ProcessFunction<UrlMessage, CanonicalUrl> {
    private static final long serialVersionUID = 1L;

    private final Canonicalizer canonicalizer;
    private final PartitionKeyer keyer;
    private final int maxDeadLetterRawBytes;
    private transient DeadLetterCounters deadLetters;

    public CanonicalizeAndKeyFunction(
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
            ctx.output(
                    DeadLetter.TAG,
                    DeadLetter.of(
                            in.url.getBytes(StandardCharsets.UTF_8),
                            in.source,
                            reason,
                            c.detail(),
                            maxDeadLetterRawBytes));
            return;
        }
        CanonicalUrl u = new CanonicalUrl(in.url, c.url(), keyer.keyOf(c), in.metaJson, in.source);
        u.metaOmitted = in.metaOmitted;
        out.collect(u);
    }
}
