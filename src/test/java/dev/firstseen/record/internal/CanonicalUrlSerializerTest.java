package dev.firstseen.record.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.Op;
import dev.firstseen.record.SourcePosition;
import dev.firstseen.testing.SerializerSnapshots;
import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shuffle format of {@link CanonicalUrl}: every field comes back as it went in, including
 * nulls, non-ASCII and unpaired surrogates, and the bytes of one record are pinned.
 */
class CanonicalUrlSerializerTest {
    private static CanonicalUrl url(
            String url, String canonical, String key, String meta, SourcePosition source) {
        return new CanonicalUrl(url, canonical, key, meta, source);
    }

    private static CanonicalUrl with(CanonicalUrl u, Op op, long revisit, int salt, boolean omit) {
        u.op = op;
        u.revisitAfterMillis = revisit;
        u.salt = salt;
        u.metaOmitted = omit;
        return u;
    }

    static Stream<CanonicalUrl> records() {
        SourcePosition src = new SourcePosition("urls", 3, 123_456_789_012L, 1_764_000_000_000L);
        return Stream.of(
                url("http://a.com/x", "http://a.com/x", "a.com", null, src),
                url("HTTP://A.com/x#f", "http://a.com/x", "a.com", "{\"d\":1}", src),
                with(url(null, null, "b.org", null, src), Op.FORGET_KEY, 0, 7, false),
                with(
                        url("http://c.net/", "http://c.net/", "c.net", null, null),
                        Op.FORCE,
                        0,
                        -1,
                        true),
                with(
                        url("http://d.de/", "http://d.de/", "d.de", null, new SourcePosition()),
                        Op.MARK_SEEN,
                        Long.MAX_VALUE,
                        1023,
                        false),
                with(
                        url("http://e.io/", "http://e.io/", null, null, src),
                        Op.FORGET,
                        86_400_000,
                        0,
                        false),
                url(
                        "http://bücher.de/ä?q=\uD800x",
                        "http://xn--bcher-kva.de/%C3%A4?q=%EF%BF%BDx",
                        "xn--bcher-kva.de",
                        "{\"t\":\"日本\"}",
                        src),
                // Lone surrogates and ASCII only: as many chars as UTF-8 bytes, not ASCII.
                url(
                        "http://g.com/?q=\uDC00\uD800",
                        "http://g.com/?q=%EF%BF%BD%EF%BF%BD",
                        "g.com",
                        "{\"s\":\"\uD800\"}",
                        src),
                url("", "", "", "", new SourcePosition("", -1, -1, Long.MIN_VALUE)),
                url(
                        "http://f.com/" + "a".repeat(100_000),
                        "http://f.com/" + "a".repeat(100_000),
                        "f.com",
                        "x".repeat(70_000),
                        src));
    }

    @ParameterizedTest
    @MethodSource("records")
    void everyFieldComesBack(CanonicalUrl u) throws IOException {
        SerializerContract.roundTrips(new CanonicalUrlSerializer(), u);
    }

    @Test
    void recordsFollowEachOtherInOneBuffer() throws IOException {
        SerializerContract.followEachOther(new CanonicalUrlSerializer(), records().toList());
    }

    /**
     * The serializer remembers the last topic it wrote and read: records from runs of topics, with
     * topics that are equal but other instances, of equal length, non-ASCII (one whose Latin-1
     * bytes equal the next topic's), empty or missing, must come back as they went in, each with
     * the bytes a fresh serializer writes for it alone, and a reader that saw other topics must
     * read them as a fresh one does.
     */
    @Test
    void topicsInRunsComeBackWithTheSameBytes() throws IOException {
        String[] topics = {
            "urls",
            "urls",
            new String("urls"),
            "ulrs",
            "urlz",
            "urls-2",
            "ürls",
            "ürlz",
            "\u0103rls", // not Latin-1: its ISO-8859-1 bytes would read "?rls"
            "?rls",
            "",
            null,
            "urls"
        };
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(5);
        CanonicalUrlSerializer writer = new CanonicalUrlSerializer();
        CanonicalUrlSerializer reader = new CanonicalUrlSerializer();
        DataOutputSerializer out = new DataOutputSerializer(64);
        List<CanonicalUrl> sent = new java.util.ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            String topic = topics[i < topics.length ? i : rnd.nextInt(topics.length)];
            CanonicalUrl u =
                    url(
                            "http://a.com/" + i,
                            "http://a.com/" + i,
                            "a.com",
                            null,
                            new SourcePosition(topic, i % 3, i, i));
            byte[] alone = SerializerContract.bytesOf(new CanonicalUrlSerializer(), u);
            assertThat(SerializerContract.bytesOf(writer, u)).as("record %d", i).isEqualTo(alone);
            writer.serialize(u, out);
            sent.add(u);
        }
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        for (CanonicalUrl u : sent) {
            assertThat(reader.deserialize(in)).usingRecursiveComparison().isEqualTo(u);
        }
        assertThat(in.available()).isZero();
    }

    /** A changed layout must be a decision: the bytes of one record are pinned here. */
    @Test
    void theBytesArePinned() throws IOException {
        CanonicalUrl u =
                with(
                        url(
                                "http://A.com/x",
                                "http://a.com/x",
                                "a.com",
                                "{}",
                                new SourcePosition("t", 1, 2, 3)),
                        Op.FORCE,
                        300,
                        2,
                        true);
        assertThat(
                        HexFormat.of()
                                .formatHex(
                                        SerializerContract.bytesOf(
                                                new CanonicalUrlSerializer(), u)))
                // flags fd (all but URL_IS_CANONICAL), op 01 (force), salt+1 03, revisit ac02
                // (300), then strings as (length << 1 | ascii) and bytes: url, canonical, key,
                // meta, topic; partition, offset and timestamp fixed-width.
                .isEqualTo(
                        "fd0103ac02"
                                + "1d687474703a2f2f412e636f6d2f78"
                                + "1d687474703a2f2f612e636f6d2f78"
                                + "0b612e636f6d"
                                + "057b7d"
                                + "0374"
                                + "00000001"
                                + "0000000000000002"
                                + "0000000000000003");
    }

    @Test
    void aUrlEqualToItsCanonicalFormIsWrittenOnce() throws IOException {
        CanonicalUrlSerializer s = new CanonicalUrlSerializer();
        String c = "http://a.com/some/long/path/to/a/page.html";
        int same = SerializerContract.bytesOf(s, url(c, c, "a.com", null, null)).length;
        int differs = SerializerContract.bytesOf(s, url(c + "#top", c, "a.com", null, null)).length;
        assertThat(differs - same).isGreaterThan(c.length());
    }

    @Test
    void badBytesFailWithAnIoException() {
        CanonicalUrlSerializer s = new CanonicalUrlSerializer();
        assertThatThrownBy(() -> s.deserialize(new DataInputDeserializer(new byte[] {0, 9, 0, 0})))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("op code 9");
        byte[] endless = new byte[] {0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
        assertThatThrownBy(() -> s.deserialize(new DataInputDeserializer(endless)))
                .isInstanceOf(IOException.class);
    }

    @Test
    void flinkPicksTheSerializerForTheType() {
        TypeInformation<CanonicalUrl> t = TypeInformation.of(CanonicalUrl.class);
        assertThat(t).isEqualTo(CanonicalUrlTypeInfo.INSTANCE);
        assertThat(t.createSerializer(new SerializerConfigImpl()))
                .isInstanceOf(CanonicalUrlSerializer.class);
    }

    @Test
    void theSnapshotRestoresAnEqualSerializer() throws IOException {
        CanonicalUrlSerializer s = new CanonicalUrlSerializer();
        TypeSerializerSnapshot<CanonicalUrl> read =
                SerializerSnapshots.roundTrip(s.snapshotConfiguration());
        assertThat(read.restoreSerializer()).isEqualTo(s);
        assertThat(s.snapshotConfiguration().resolveSchemaCompatibility(read).isCompatibleAsIs())
                .isTrue();
        assertThat(s.duplicate()).isNotSameAs(s).isEqualTo(s);
    }
}
