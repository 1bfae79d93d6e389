package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firstseen.testing.SerializerSnapshots;
import java.io.IOException;
import java.util.HexFormat;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * Golden byte layouts of everything FirstSeen writes to keyed state. If one of these fails, the
 * change breaks restoring existing checkpoints: bump the format version and read the old one.
 */
class StateSerializersTest {

    private static <T> String hex(TypeSerializer<T> s, T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(value, out);
        return HexFormat.of().formatHex(out.getCopyOfBuffer());
    }

    private static <T> T read(TypeSerializer<T> s, String hex) throws IOException {
        return s.deserialize(new DataInputDeserializer(HexFormat.of().parseHex(hex)));
    }

    @Test
    void fingerprintFormatV1() throws IOException {
        Fingerprint fp = new Fingerprint(0x0102030405060708L, 0xF0E0D0C0B0A09080L);
        String golden = "0102030405060708f0e0d0c0b0a09080";
        assertThat(hex(FingerprintSerializer.INSTANCE, fp)).isEqualTo(golden);
        assertThat(read(FingerprintSerializer.INSTANCE, golden)).isEqualTo(fp);
        assertThat(FingerprintSerializer.INSTANCE.getLength()).isEqualTo(16);
    }

    /**
     * The 64-bit exact store ("seen-64"): 8 bytes of {@code hi} to 4 bytes of unsigned seconds,
     * both big-endian; a time past 2^31 seconds (2038) still reads back.
     */
    @Test
    void exactStoreOf64BitFingerprints() throws IOException {
        var d = DedupState.seen64();
        assertThat(d.getName()).isEqualTo("seen-64");
        d.initializeSerializerUnlessSet(new org.apache.flink.api.common.ExecutionConfig());
        var keys =
                ((org.apache.flink.api.common.typeutils.base.MapSerializer<Long, Integer>)
                                d.getSerializer())
                        .getKeySerializer();
        var values =
                ((org.apache.flink.api.common.typeutils.base.MapSerializer<Long, Integer>)
                                d.getSerializer())
                        .getValueSerializer();
        assertThat(hex(keys, 0x0102030405060708L)).isEqualTo("0102030405060708");
        int seconds = ExactStore.Narrow.seconds(3_000_000_000_123L); // 2065, past 2^31 s
        assertThat(hex(values, seconds)).isEqualTo("b2d05e00");
        assertThat(ExactStore.Narrow.millis(read(values, "b2d05e00")))
                .isEqualTo(3_000_000_000_000L);
        assertThat(ExactStore.Narrow.seconds(-5)).isZero();
        assertThat(ExactStore.Narrow.millis(ExactStore.Narrow.seconds(Long.MAX_VALUE)))
                .isEqualTo(0xFFFF_FFFFL * 1000);
    }

    @Test
    void filterMetaFormatV1() throws IOException {
        FilterMeta m = FilterMeta.create(1000, 0.01);
        m.layer(0).count = 1000;
        KeyFilter f = new KeyFilter("k", m, true);
        f.grow();
        m.layer(1).count = 5;
        String golden =
                "01" // format
                        + "01" // strategy
                        + "00000000000003e8" // initial capacity 1000
                        + "3f847ae147ae147b" // 0.01
                        + "02" // layers
                        + "00000002"
                        + "0c"
                        + "07"
                        + "00000000000003e8"
                        + "00000000000003e8"
                        + "00000007"
                        + "0f"
                        + "08"
                        + "0000000000000fa0"
                        + "0000000000000005";
        assertThat(hex(FilterMetaSerializer.INSTANCE, m)).isEqualTo(golden);
        FilterMeta back = read(FilterMetaSerializer.INSTANCE, golden);
        assertThat(back.layerCount()).isEqualTo(2);
        assertThat(back.layer(1).capacity).isEqualTo(4000);
        assertThat(back.layer(1).count()).isEqualTo(5);
        assertThat(back.layer(1).pages).isEqualTo(7);
        assertThat(back.targetFpp()).isEqualTo(0.01);
    }

    @Test
    void filterMetaFormatV2() throws IOException {
        FilterMeta m = FilterMeta.createFingerprints(128, 1e-4);
        m.addEntries(0, 130);
        KeyFilter f = new KeyFilter("k", m, true);
        f.grow();
        m.addEntries(1, 1200);
        m.advanceSplit(1);
        m.advanceSplit(1);
        String golden =
                "02" // format
                        + "02" // strategy
                        + "0000000000000080" // initial capacity 128
                        + "3f1a36e2eb1c432d" // 1e-4
                        + "02" // classes
                        + "16" // width 22
                        + "00" // level
                        + "00000000" // split
                        + "00000000000000d1" // capacity 209
                        + "0000000000000082" // count 130
                        + "19" // width 25
                        + "01"
                        + "00000001"
                        + "000000000000022f" // capacity 559
                        + "00000000000004b0";
        assertThat(hex(FilterMetaSerializer.INSTANCE, m)).isEqualTo(golden);
        FilterMeta back = read(FilterMetaSerializer.INSTANCE, golden);
        assertThat(back.isFingerprints()).isTrue();
        assertThat(back.layerCount()).isEqualTo(2);
        assertThat(back.fingerprintClass(1).pages()).isEqualTo(3);
        assertThat(back.fingerprintClass(1).count()).isEqualTo(1200);
        assertThat(back.targetFpp()).isEqualTo(1e-4);
    }

    /** Exact mode's fingerprint pages: format 2 with strategy 3, one 63-bit class without end. */
    @Test
    void filterMetaOfExactFingerprints() throws IOException {
        FilterMeta m = FilterMeta.createExactFingerprints(128);
        m.addEntries(0, 1100);
        m.advanceSplit(0);
        String golden =
                "02" // format
                        + "03" // strategy: exact fingerprint pages
                        + "0000000000000080" // expected URLs 128, kept for the record
                        + "0000000000000000" // no target rate
                        + "01" // one class
                        + "3f" // width 63
                        + "01" // level
                        + "00000000" // split
                        + "7fffffffffffffff" // capacity: never full
                        + "000000000000044c"; // count 1100
        assertThat(hex(FilterMetaSerializer.INSTANCE, m)).isEqualTo(golden);
        FilterMeta back = read(FilterMetaSerializer.INSTANCE, golden);
        assertThat(back.isExactFingerprints()).isTrue();
        assertThat(back.isFingerprints()).isTrue();
        assertThat(back.isFull()).isFalse();
        assertThat(back.fingerprintClass(0).pages()).isEqualTo(2);
        assertThat(back.fingerprintClass(0).width).isEqualTo(63);
        assertThat(FilterMeta.createFingerprints(128, 1e-4).isExactFingerprints()).isFalse();
    }

    /**
     * A key with a page journal: format 3 is format 2 with another format byte, so the bytes after
     * it are the golden bytes above.
     */
    @Test
    void filterMetaWithAPageJournal() throws IOException {
        FilterMeta m = FilterMeta.createExactFingerprints(128).withJournal(true);
        m.addEntries(0, 1100);
        m.advanceSplit(0);
        String golden =
                "03" // format: format 2, and a page journal to insert over the pages
                        + "03"
                        + "0000000000000080"
                        + "0000000000000000"
                        + "01"
                        + "3f"
                        + "01"
                        + "00000000"
                        + "7fffffffffffffff"
                        + "000000000000044c";
        assertThat(hex(FilterMetaSerializer.INSTANCE, m)).isEqualTo(golden);
        FilterMeta back = read(FilterMetaSerializer.INSTANCE, golden);
        assertThat(back.journal).isTrue();
        assertThat(back.isExactFingerprints()).isTrue();
        assertThat(back.count()).isEqualTo(1100);
        assertThat(back.copy().journal).isTrue();
        // Without a journal the same metadata is written as before, in format 2.
        assertThat(hex(FilterMetaSerializer.INSTANCE, back.withJournal(false)))
                .isEqualTo("02" + golden.substring(2));
        assertThat(read(FilterMetaSerializer.INSTANCE, "02" + golden.substring(2)).journal)
                .isFalse();
    }

    /**
     * Approximate mode's generations ({@code dedup.forget-after}): formats 4 and 5 are formats 2
     * and 3 followed by each class's generation end, so the bytes between are format 2's.
     */
    @Test
    void filterMetaWithGenerations() throws IOException {
        FilterMeta m = FilterMeta.createFingerprints(128, 1e-4);
        m.addEntries(0, 130);
        m.startGenerations(0x100L, 1e-4);
        KeyFilter f = new KeyFilter("k", m, true);
        f.startGeneration(0x200L);
        m.addEntries(1, 3);
        String classes =
                "02" // strategy
                        + "0000000000000080" // initial capacity 128
                        + "3f1a36e2eb1c432d" // 1e-4
                        + "02" // classes
                        + "16" // width 22: class 0 of its generation
                        + "00"
                        + "00000000"
                        + "00000000000000d1" // capacity 209
                        + "0000000000000082" // count 130
                        + "16" // width 22 again: the first class of a new generation
                        + "00"
                        + "00000000"
                        + "00000000000000d1"
                        + "0000000000000003";
        String golden =
                "04" // format: format 2 with generations
                        + classes
                        + "0000000000000100" // class 0's generation ends at 256 ms
                        + "0000000000000200"; // class 1's at 512 ms
        assertThat(hex(FilterMetaSerializer.INSTANCE, m)).isEqualTo(golden);
        FilterMeta back = read(FilterMetaSerializer.INSTANCE, golden);
        assertThat(back.hasGenerations()).isTrue();
        assertThat(back.until(0)).isEqualTo(0x100L);
        assertThat(back.until(1)).isEqualTo(0x200L);
        assertThat(back.journal).isFalse();
        assertThat(back.copy().until(1)).isEqualTo(0x200L);
        assertThat(hex(FilterMetaSerializer.INSTANCE, back.withJournal(true)))
                .isEqualTo("05" + golden.substring(2));
        FilterMeta journaled = read(FilterMetaSerializer.INSTANCE, "05" + golden.substring(2));
        assertThat(journaled.journal).isTrue();
        assertThat(journaled.until(1)).isEqualTo(0x200L);
        // A filter without generations is written as before.
        assertThat(hex(FilterMetaSerializer.INSTANCE, back.withUntils(null)))
                .isEqualTo("03" + classes);
    }

    @Test
    void unknownFormatIsRefused() {
        assertThatThrownBy(() -> read(FilterMetaSerializer.INSTANCE, "06"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("format 6");
        assertThatThrownBy(() -> read(FilterMetaSerializer.INSTANCE, "0302"))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> read(FilterMetaSerializer.INSTANCE, "0301"))
                .hasMessageContaining("strategy 1 in format 3");
        assertThatThrownBy(() -> read(FilterMetaSerializer.INSTANCE, "0109"))
                .hasMessageContaining("strategy 9");
    }

    @Test
    void snapshotsAreVersionedAndRoundTrip() throws IOException {
        for (TypeSerializer<?> s :
                new TypeSerializer<?>[] {
                    FingerprintSerializer.INSTANCE, FilterMetaSerializer.INSTANCE
                }) {
            TypeSerializerSnapshot<?> snap = s.snapshotConfiguration();
            assertThat(snap.getCurrentVersion())
                    .isEqualTo(s == FilterMetaSerializer.INSTANCE ? 5 : 1);
            TypeSerializerSnapshot<?> back = SerializerSnapshots.roundTrip(snap);
            assertThat(back.restoreSerializer()).isSameAs(s);
        }
        FingerprintSerializer.Snapshot newer = new FingerprintSerializer.Snapshot();
        assertThatThrownBy(
                        () ->
                                newer.readSnapshot(
                                        2,
                                        new DataInputDeserializer(new byte[0]),
                                        getClass().getClassLoader()))
                .hasMessageContaining("Unrecognized version 2");
        TypeSerializerSchemaCompatibility<Fingerprint> compat =
                new FingerprintSerializer.Snapshot()
                        .resolveSchemaCompatibility(new FingerprintSerializer.Snapshot());
        assertThat(compat.isCompatibleAsIs()).isTrue();
    }
}
