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
            deadLetter(in, ctx, c.reason(), c.detail());
            return;
        }
        String key;
        try {
            key = keyer.keyOf(c);
        } catch (RuntimeException e) {
            // The public suffix lookup is a library's: whatever it throws on some host must not
            // fail the job on that record after every restart.
            deadLetter(in, ctx, DeadLetterReason.UNPROCESSABLE, "keying failed: " + e);
            return;
        }
        CanonicalUrl u =
                new CanonicalUrl(
                        Canonicalizer.fetchable(in.url), c.url(), key, in.metaJson, in.source);
        u.metaOmitted = in.metaOmitted;
        out.collect(u);
    }

    private void deadLetter(UrlMessage in, Context ctx, DeadLetterReason reason, String detail) {
        deadLetters.inc(reason);
        ctx.output(
                DeadLetter.TAG,
                DeadLetter.of(
                        in.url.getBytes(StandardCharsets.UTF_8),
                        in.source,
                        reason,
                        detail,
                        maxDeadLetterRawBytes));
    }
}
