package dev.firstseen.keying;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.DeadLetterReason;
import dev.firstseen.record.SourcePosition;
import dev.firstseen.record.UrlMessage;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The canonicalize-and-key stage on Flink's operator harness. */
class CanonicalizeAndKeyFunctionTest {
    private static final SourcePosition AT = new SourcePosition("in", 0, 1, 5L);

    private static OneInputStreamOperatorTestHarness<UrlMessage, CanonicalUrl> harness()
            throws Exception {
        return harness(HotKeySalting.NONE);
    }

    /** The stage with default canonicalization, domain keys and {@code salting}, opened. */
    static OneInputStreamOperatorTestHarness<UrlMessage, CanonicalUrl> harness(
            HotKeySalting salting) throws Exception {
        var h =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(
                                new CanonicalizeAndKeyFunction(
                                        Canonicalizer.defaults(),
                                        new PartitionKeyer(KeyMode.DOMAIN),
                                        8192,
                                        salting)));
        h.open();
        return h;
    }

    @Test
    void theUrlToFetchLosesControlCharactersAtItsEndsAndNothingElse() throws Exception {
        try (var h = harness()) {
            h.processElement(
                    new StreamRecord<>(
                            new UrlMessage(
                                    " \u0000HTTP://Example.com/A b\n/c\u0000\u0007 ", null, AT)));
            List<CanonicalUrl> out = h.extractOutputValues();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).url).isEqualTo("HTTP://Example.com/A b/c");
            assertThat(out.get(0).canonical).isEqualTo("http://example.com/A%20b/c");
            assertThat(out.get(0).key).isEqualTo("example.com");
        }
    }

    @Test
    void aHostTooLongForIdnaIsADeadLetterNotAFailure() throws Exception {
        try (var h = harness()) {
            h.processElement(
                    new StreamRecord<>(
                            new UrlMessage("http://" + "\u00fc".repeat(1001) + ".com/", null, AT)));
            assertThat(h.extractOutputValues()).isEmpty();
            List<DeadLetter> dead =
                    h.getSideOutput(DeadLetter.TAG).stream()
                            .map(StreamRecord::getValue)
                            .collect(Collectors.toList());
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).reason).isEqualTo(DeadLetterReason.HOST_TOO_LONG.code());
        }
    }
}
