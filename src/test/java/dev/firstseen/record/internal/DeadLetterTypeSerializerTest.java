package dev.firstseen.record.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.DeadLetterReason;
import dev.firstseen.record.SourcePosition;
import dev.firstseen.testing.SerializerSnapshots;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shuffle format of {@link DeadLetter}: every field comes back as it went in, including nulls,
 * a null value, garbage bytes, non-ASCII and unpaired surrogates, and the bytes of one dead letter
 * are pinned.
 */
class DeadLetterTypeSerializerTest {
    private static final SourcePosition SRC =
            new SourcePosition("urls", 3, 123_456_789_012L, 1_764_000_000_000L);

    private static DeadLetter letter(byte[] value, SourcePosition src, String detail, int max) {
        return DeadLetter.of(value, src, DeadLetterReason.INVALID_UTF8, detail, max);
    }

    static Stream<DeadLetter> letters() {
        byte[] garbage = new byte[300];
        new SplittableRandom(7).nextBytes(garbage);
        byte[] big = ("http://a.com/" + "x".repeat(70_000)).getBytes(StandardCharsets.UTF_8);
        DeadLetter bare = new DeadLetter(); // every reference null, as a POJO's default
        return Stream.of(
                letter("mailto:a@b.com".getBytes(StandardCharsets.UTF_8), SRC, "no scheme", 8192),
                letter(garbage, SRC, "value is not valid UTF-8", 8192),
                letter(big, SRC, "record has 70013 bytes", 8192),
                letter(null, SRC, "null value", 8192),
                letter(new byte[0], new SourcePosition(), "empty value", 8192),
                letter("http://ü.de/".getBytes(StandardCharsets.UTF_8), null, "bad \uD800 ü", 4),
                bare);
    }

    @ParameterizedTest
    @MethodSource("letters")
    void everyFieldComesBack(DeadLetter d) throws IOException {
        DeadLetter copy = SerializerContract.roundTrips(new DeadLetterTypeSerializer(), d);
        if (d.raw != null && d.raw.length > 0) {
            assertThat(copy.raw).isNotSameAs(d.raw);
        }
    }

    @Test
    void lettersFollowEachOtherInOneBuffer() throws IOException {
        SerializerContract.followEachOther(new DeadLetterTypeSerializer(), letters().toList());
    }

    /** A changed layout must be a decision: the bytes of one dead letter are pinned here. */
    @Test
    void theBytesArePinned() throws IOException {
        DeadLetter d =
                DeadLetter.of(
                        "ab".getBytes(StandardCharsets.US_ASCII),
                        new SourcePosition("t", 1, 2, 3),
                        DeadLetterReason.INVALID_UTF8,
                        "x",
                        8192);
        assertThat(
                        HexFormat.of()
                                .formatHex(
                                        SerializerContract.bytesOf(
                                                new DeadLetterTypeSerializer(), d)))
                // flags 1f (reason, detail, raw, source, topic), rawLength+1 03, then strings as
                // (length << 1 | ascii) and bytes: reason, detail; raw as length and bytes; topic,
                // partition, offset and timestamp fixed-width.
                .isEqualTo(
                        "1f03"
                                + "19"
                                + "696e76616c69642d75746638" // invalid-utf8
                                + "0378"
                                + "026162"
                                + "0374"
                                + "00000001"
                                + "0000000000000002"
                                + "0000000000000003");
    }

    @Test
    void badBytesFailWithAnIoException() {
        DeadLetterTypeSerializer s = new DeadLetterTypeSerializer();
        byte[] endless = {0x04, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
        assertThatThrownBy(() -> s.deserialize(new DataInputDeserializer(endless)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("DeadLetter");
        byte[] tooLong = {0x01, 0, -1, -1, -1, -1, 0x7F};
        assertThatThrownBy(() -> s.deserialize(new DataInputDeserializer(tooLong)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("string length");
    }

    @Test
    void flinkPicksTheSerializerForTheType() {
        TypeInformation<DeadLetter> t = TypeInformation.of(DeadLetter.class);
        assertThat(t).isEqualTo(DeadLetterTypeInfo.INSTANCE);
        assertThat(DeadLetter.TAG.getTypeInfo()).isEqualTo(DeadLetterTypeInfo.INSTANCE);
        assertThat(t.createSerializer(new SerializerConfigImpl()))
                .isInstanceOf(DeadLetterTypeSerializer.class);
        assertThat(t).isNotEqualTo(CanonicalUrlTypeInfo.INSTANCE);
    }

    @Test
    void theSnapshotRestoresAnEqualSerializer() throws IOException {
        DeadLetterTypeSerializer s = new DeadLetterTypeSerializer();
        TypeSerializerSnapshot<DeadLetter> read =
                SerializerSnapshots.roundTrip(s.snapshotConfiguration());
        assertThat(read.restoreSerializer()).isEqualTo(s);
        assertThat(s.snapshotConfiguration().resolveSchemaCompatibility(read).isCompatibleAsIs())
                .isTrue();
    }
}
