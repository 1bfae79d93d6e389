package dev.firstseen.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.ingest.MessageDecoder;
import dev.firstseen.record.DeadLetterReason;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** Every hostile record must be a dead letter under the job's default settings. */
class HostileRecordsTest {
    private final FirstSeenSettings settings =
            FirstSeenSettings.from(
                    Configuration.fromMap(
                            Map.of(
                                    "kafka.bootstrap-servers", "127.0.0.1:1",
                                    "input.topics", "in",
                                    "frontier.topic", "out",
                                    "dead-letter.topic", "dead")));
    private final MessageDecoder decoder = settings.messageDecoder();

    private DeadLetterReason rejection(byte[] value) {
        MessageDecoder.Decoded d = decoder.decode(value);
        if (d.reason != null) {
            return d.reason;
        }
        Canonicalization c = settings.canonicalizer().canonicalize(d.url);
        return c.isAccepted() ? null : c.reason();
    }

    @Test
    void everyKindIsRejected() {
        HostileRecords h = new HostileRecords(3);
        for (int k = 0; k < HostileRecords.KINDS; k++) {
            int kind = k;
            for (int i = 0; i < 200; i++) {
                byte[] v = h.kind(kind);
                assertNotNull(
                        rejection(v),
                        () ->
                                "kind "
                                        + kind
                                        + " was accepted: "
                                        + new String(
                                                v == null ? new byte[0] : v,
                                                StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void aMixedFloodIsAllRejectedWithSeveralReasons() {
        HostileRecords h = new HostileRecords(11);
        Map<DeadLetterReason, Integer> reasons = new EnumMap<>(DeadLetterReason.class);
        int megabytes = 0;
        for (int i = 0; i < 5_000; i++) {
            byte[] v = h.next();
            if (v != null && v.length == 1 << 20) {
                megabytes++;
            }
            DeadLetterReason r = rejection(v);
            assertNotNull(r, "record " + i + " was accepted");
            reasons.merge(r, 1, Integer::sum);
        }
        assertEquals(10, megabytes);
        assertTrue(reasons.containsKey(DeadLetterReason.TOO_LONG), reasons::toString);
        assertTrue(reasons.size() >= 8, () -> "only " + reasons);
    }
}
