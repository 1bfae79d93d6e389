package dev.firstseen.record;

import dev.firstseen.record.internal.DeadLetterTypeInfo;
import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.OutputTag;

/**
 * A record FirstSeen could not use, with why, and where it came from. The raw value is kept up to a
 * limit so that a 1 MB garbage record cannot make the dead-letter write itself fail. It crosses to
 * the dead-letter sink in the format of {@link
 * dev.firstseen.record.internal.DeadLetterTypeSerializer}, not as a POJO.
 */
@TypeInfo(DeadLetterTypeInfo.Factory.class)
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

    public SourcePosition source;

    public DeadLetter() {}

    /** A dead letter for {@code value}, keeping at most {@code maxRawBytes} of it. */
    public static DeadLetter of(
            byte[] value,
            SourcePosition source,
            DeadLetterReason reason,
            String detail,
            int maxRawBytes) {
        DeadLetter d = new DeadLetter();
        d.reason = reason.code();
        d.detail = detail;
        if (value != null) {
            d.rawLength = value.length;
            d.raw =
                    value.length <= maxRawBytes
                            ? value
                            : Arrays.copyOf(value, cut(value, maxRawBytes));
        } else {
            d.rawLength = -1;
        }
        d.source = source;
        return d;
    }

    /**
     * Where to cut {@code value} to keep at most {@code max} bytes: never inside a UTF-8 sequence
     * (a cut moves back over up to three continuation bytes), so a valid UTF-8 value stays valid.
     */
    static int cut(byte[] value, int max) {
        int cut = max;
        for (int k = 0; k < 3 && cut > 0 && (value[cut] & 0xC0) == 0x80; k++) {
            cut--;
        }
        return cut;
    }

    /** A dead letter for {@code record}, keeping at most {@code maxRawBytes} of its value. */
    public static DeadLetter of(
            RawRecord record, DeadLetterReason reason, String detail, int maxRawBytes) {
        return of(record.value, record.source, reason, detail, maxRawBytes);
    }
}
