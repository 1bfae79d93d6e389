package dev.firstseen.keying;

import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.metrics.DeadLetterCounters;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.DeadLetterReason;
import dev.firstseen.record.Op;
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
    private final HotKeySalting salting;
    private transient DeadLetterCounters deadLetters;

    public CanonicalizeAndKeyFunction(
            Canonicalizer canonicalizer, PartitionKeyer keyer, int maxDeadLetterRawBytes) {
        this(canonicalizer, keyer, maxDeadLetterRawBytes, HotKeySalting.NONE);
    }

    public CanonicalizeAndKeyFunction(
            Canonicalizer canonicalizer,
            PartitionKeyer keyer,
            int maxDeadLetterRawBytes,
            HotKeySalting salting) {
        this.canonicalizer = canonicalizer;
        this.keyer = keyer;
        this.maxDeadLetterRawBytes = maxDeadLetterRawBytes;
        this.salting = salting;
    }

    @Override
    public void open(OpenContext openContext) {
        deadLetters =
                new DeadLetterCounters(
                        getRuntimeContext(), getRuntimeContext().getMetricGroup(), "canonical");
    }

    @Override
    public void processElement(UrlMessage in, Context ctx, Collector<CanonicalUrl> out) {
        if (in.op == Op.FORGET_KEY) {
            forgetKey(in, ctx, out);
            return;
        }
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
        CanonicalUrl u = new CanonicalUrl(c.fetchable(), c.url(), key, in.metaJson, in.source);
        u.metaOmitted = in.metaOmitted;
        u.op = in.op;
        u.revisitAfterMillis = in.revisitAfterMillis;
        u.salt = salting.saltOf(key, u.canonical);
        out.collect(u);
    }

    /**
     * A forget-key op names a partition key, written as a host. It is normalized as a host is
     * (IDNA, lower case) and must be a key as the job forms them: in domain mode a registrable
     * domain, so that {@code www.example.com} is refused rather than taken for {@code example.com},
     * which would forget far more than asked.
     */
    private void forgetKey(UrlMessage in, Context ctx, Collector<CanonicalUrl> out) {
        PartitionKeyer.HostKey hk = keyer.keyOfHost(canonicalizer, in.opKey);
        String key = hk == null ? null : hk.key();
        if (hk == null || !hk.isKey()) {
            deadLetterOf(
                    in.opKey,
                    in,
                    ctx,
                    DeadLetterReason.BAD_OP,
                    key == null
                            ? "'" + in.opKey + "' is not a host name or address"
                            : "'"
                                    + in.opKey
                                    + "' is not a partition key in "
                                    + keyer.mode()
                                    + " key mode; its key is '"
                                    + key
                                    + "'");
            return;
        }
        // A salted key's state is spread over its salts: the op goes to each of them.
        int salts = salting.isSalted(key) ? salting.salts() : 0;
        for (int salt = salts == 0 ? -1 : 0; salt < salts; salt++) {
            CanonicalUrl u = new CanonicalUrl(null, null, key, null, in.source);
            u.op = Op.FORGET_KEY;
            u.salt = salt;
            out.collect(u);
        }
    }

    private void deadLetter(UrlMessage in, Context ctx, DeadLetterReason reason, String detail) {
        deadLetterOf(in.url, in, ctx, reason, detail);
    }

    private void deadLetterOf(
            String raw, UrlMessage in, Context ctx, DeadLetterReason reason, String detail) {
        deadLetters.inc(reason);
        ctx.output(
                DeadLetter.TAG,
                DeadLetter.of(
                        raw.getBytes(StandardCharsets.UTF_8),
                        in.source,
                        reason,
                        detail,
                        maxDeadLetterRawBytes));
    }
}
