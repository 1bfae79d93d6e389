package dev.firstseen.emit;

import dev.firstseen.ingest.RawRecord;
import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.OutputTag;

/**
 * A record FirstSeen could not use, with why, and where it came from. Written to the dead-letter
 * topic by {@link DeadLetterSerializer}. The raw value is kept up to a limit so that a 1 MB garbage
 * record cannot make the dead-letter write itself fail. A Flink POJO.
 */
public class DeadLetter {
    /** Side output that every stage sends its dead letters to. */
    public static final OutputTag<DeadLetter> TAG =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    public String reason;
    public String detail;

    /** The first bytes of the raw value, null for a null value. */
    public byte[] raw;

    /** Length of the whole raw value in bytes, -1 for a null value. */
    public int rawLength;

    public String topic;
    public int partition;
    public long offset;
    public long timestamp;

    public DeadLetter() {}

    /** A dead letter for {@code record}, keeping at most {@code maxRawBytes} of its value. */
    public static DeadLetter of(
            RawRecord record, DeadLetterReason reason, String detail, int maxRawBytes) {
        DeadLetter d = new DeadLetter();
        d.reason = reason.code();
        d.detail = detail;
        if (record.value != null) {
            d.rawLength = record.value.length;
            d.raw =
                    record.value.length <= maxRawBytes
                            ? record.value
                            : Arrays.copyOf(record.value, maxRawBytes);
        } else {
            d.rawLength = -1;
        }
        d.topic = record.topic;
        d.partition = record.partition;
        d.offset = record.offset;
        d.timestamp = record.timestamp;
        return d;
    }
}
