package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.shaded.guava33.com.google.common.hash.HashCode;
import org.apache.flink.shaded.guava33.com.google.common.hash.Hashing;
import org.junit.jupiter.api.Test;

class FingerprintTest {
    /** Golden values: a change here changes the state format (every stored fingerprint misses). */
    @Test
    void goldenFingerprints() {
        assertThat(Fingerprint.of("http://example.com/").toString()).isEqualTo(GOLDEN_EXAMPLE);
        assertThat(Fingerprint.of("").toString()).isEqualTo("00000000000000000000000000000000");
    }

    static final String GOLDEN_EXAMPLE = "a097098a4e7151f8cc4b29393778419d";

    /** Cross-check against an independent implementation (Guava) on every tail length. */
    @Test
    void matchesGuavaMurmur3() {
        SplittableRandom rnd = new SplittableRandom(42);
        for (int len = 0; len < 200; len++) {
            for (int rep = 0; rep < 20; rep++) {
                byte[] b = new byte[len];
                for (int i = 0; i < len; i++) {
                    b[i] = (byte) rnd.nextInt(256);
                }
                HashCode h = Hashing.murmur3_128().hashBytes(b);
                ByteBuffer bb = ByteBuffer.wrap(h.asBytes()).order(ByteOrder.LITTLE_ENDIAN);
                Fingerprint fp = Fingerprint.ofBytes(b);
                assertThat(fp.hi).as("hi, len %d", len).isEqualTo(bb.getLong());
                assertThat(fp.lo).as("lo, len %d", len).isEqualTo(bb.getLong());
            }
        }
    }

    @Test
    void asciiAndUtf8PathsAgree() {
        String ascii = "http://example.com/a?b=c";
        assertThat(Fingerprint.of(ascii))
                .isEqualTo(Fingerprint.ofBytes(ascii.getBytes(StandardCharsets.UTF_8)));
        String utf = "http://example.com/café";
        assertThat(Fingerprint.of(utf))
                .isEqualTo(Fingerprint.ofBytes(utf.getBytes(StandardCharsets.UTF_8)));
        assertThat(Fingerprint.of("http://a/1")).isNotEqualTo(Fingerprint.of("http://a/2"));
    }

    /**
     * SipHash-2-4-128 reference vectors (veorq/SipHash, vectors.h, {@code vectors_sip128}): key 00
     * 01 .. 0f, message 00 01 .. (len - 1). Golden for the keyed fingerprint function.
     */
    @Test
    void sipHashMatchesTheReferenceVectors() {
        long k0 = 0x0706050403020100L;
        long k1 = 0x0f0e0d0c0b0a0908L;
        String[] expected = {
            "a3817f04ba25a8e66df67214c7550293",
            "da87c1d86b99af44347659119b22fc45",
            "8177228da4a45dc7fca38bdef60affe4",
            "9c70b60c5267a94e5f33b6b02985ed51",
            "f88164c12d9c8faf7d0f6e7c7bcd5579",
            "1368875980776f8854527a07690e9627"
        };
        for (int len = 0; len < expected.length; len++) {
            StringBuilder msg = new StringBuilder();
            for (int i = 0; i < len; i++) {
                msg.append((char) i);
            }
            long[] h = dev.firstseen.dedup.internal.SipHash.hash128(k0, k1, 2, 4, bytes(msg));
            ByteBuffer out = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            out.putLong(h[0]).putLong(h[1]);
            assertThat(java.util.HexFormat.of().formatHex(out.array()))
                    .as("length %d", len)
                    .isEqualTo(expected[len]);
        }
        StringBuilder fifteen = new StringBuilder();
        for (int i = 0; i < 15; i++) {
            fifteen.append((char) i);
        }
        long[] h = dev.firstseen.dedup.internal.SipHash.hash128(k0, k1, 2, 4, bytes(fifteen));
        ByteBuffer out = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        out.putLong(h[0]).putLong(h[1]);
        assertThat(java.util.HexFormat.of().formatHex(out.array()))
                .isEqualTo("5493e99933b0a8117e08ec0f97cfc3d9");
    }

    /** The chars of {@code msg}, each a byte value, as the bytes they stand for. */
    private static byte[] bytes(CharSequence msg) {
        return msg.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Golden: the keyed function's state form and one value under a fixed key. */
    @Test
    void keyedFingerprintsArePinned() {
        FingerprintFunction f = FingerprintFunction.keyed(0x0706050403020100L, 0x0f0e0d0c0b0a0908L);
        assertThat(f.stored()).isEqualTo("v1:siphash-2-4-128:07060504030201000f0e0d0c0b0a0908");
        assertThat(FingerprintFunction.parse(f.stored()).of("http://example.com/"))
                .isEqualTo(f.of("http://example.com/"));
        assertThat(f.of("http://example.com/").toString()).isEqualTo(GOLDEN_KEYED_EXAMPLE);
        assertThat(f.toString()).doesNotContain("0706050403020100");
        // Another key, another fingerprint; the legacy function is the Murmur3 one.
        assertThat(FingerprintFunction.keyed(1, 2).of("http://example.com/"))
                .isNotEqualTo(f.of("http://example.com/"));
        assertThat(FingerprintFunction.LEGACY_MURMUR3.of("http://example.com/").toString())
                .isEqualTo(GOLDEN_EXAMPLE);
        assertThat(FingerprintFunction.parse("v1:murmur3-128"))
                .isSameAs(FingerprintFunction.LEGACY_MURMUR3);
    }

    static final String GOLDEN_KEYED_EXAMPLE = "682be38b3c9c21a188c0165ace09aaa4";

    /**
     * SipHash-2-4 with 64-bit output against the reference vectors (github.com/veorq/SipHash,
     * vectors.h, and the paper's appendix example for 15 bytes): key 00..0f, message 00..len-1.
     */
    @Test
    void sipHash64MatchesTheReferenceVectors() {
        long k0 = 0x0706050403020100L;
        long k1 = 0x0f0e0d0c0b0a0908L;
        Map<Integer, String> expected =
                Map.of(0, "310e0edd47db6f72", 1, "fd67dc93c539f874", 15, "e545be4961ca29a1");
        for (Map.Entry<Integer, String> e : expected.entrySet()) {
            StringBuilder msg = new StringBuilder();
            for (int i = 0; i < e.getKey(); i++) {
                msg.append((char) i);
            }
            long h = dev.firstseen.dedup.internal.SipHash.hash64(k0, k1, 2, 4, bytes(msg));
            ByteBuffer out = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            out.putLong(h);
            assertThat(java.util.HexFormat.of().formatHex(out.array()))
                    .as("length %d", e.getKey())
                    .isEqualTo(e.getValue());
        }
    }

    /**
     * Golden: the 64-bit function's state form, one value under a fixed key, and the rule that
     * rebuilds a whole fingerprint from the 8 bytes the exact store keeps.
     */
    @Test
    void sixtyFourBitFingerprintsArePinned() {
        FingerprintFunction f =
                FingerprintFunction.withKey(64, 0x0706050403020100L, 0x0f0e0d0c0b0a0908L);
        assertThat(f.bits()).isEqualTo(64);
        assertThat(f.stored()).isEqualTo("v1:siphash-2-4-64:07060504030201000f0e0d0c0b0a0908");
        Fingerprint fp = f.of("http://example.com/");
        assertThat(fp.toString()).isEqualTo(GOLDEN_64_EXAMPLE);
        assertThat(FingerprintFunction.fromHi(fp.hi)).isEqualTo(fp);
        FingerprintFunction parsed = FingerprintFunction.parse(f.stored());
        assertThat(parsed.bits()).isEqualTo(64);
        assertThat(parsed.of("http://example.com/")).isEqualTo(fp);
        assertThat(FingerprintFunction.newSecret(64).bits()).isEqualTo(64);
        assertThat(FingerprintFunction.keyed(1, 2).bits()).isEqualTo(128);
        assertThat(DedupConfig.builder().build().fingerprints().bits()).isEqualTo(64);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> FingerprintFunction.withKey(96, 1, 2))
                .hasMessageContaining("64 or 128");
    }

    static final String GOLDEN_64_EXAMPLE = "97033e4217c73187855817cac0f8bfb9";

    /**
     * Golden: fingerprints of URLs that are not plain ASCII, of one whose length is a multiple of
     * 8, of a long one, of the empty string and of a lone surrogate, under both keyed functions.
     * The values were computed by the function before it read the URL's bytes as words
     * (2026-11-25), which read them as chars; state written then must keep finding its URLs.
     */
    @Test
    void fingerprintsOfEveryKindOfStringArePinned() {
        FingerprintFunction f64 =
                FingerprintFunction.withKey(64, 0x0706050403020100L, 0x0f0e0d0c0b0a0908L);
        FingerprintFunction f128 =
                FingerprintFunction.withKey(128, 0x0706050403020100L, 0x0f0e0d0c0b0a0908L);
        Map<String, String[]> golden = new java.util.LinkedHashMap<>();
        golden.put(
                "http://example.com/caf\u00e9",
                new String[] {
                    "13a8f4f6812a719c8f7c3919e7e741e6", "7917143533058174cc4dd51447c3733d"
                });
        golden.put(
                "https://xn--bcher-kva.example/path?q=\u00e9\u4e2d\ud83d\ude00",
                new String[] {
                    "ee72d639466cec89bd95dce753712ba2", "86c0f48c31b3c465a6cb8202f9090987"
                });
        golden.put(
                "http://example.com/12345678",
                new String[] {
                    "df462db4815e104e53d77bec9aad3d04", "9081c44eb8d3e9a0ef9ed702ac8cc29e"
                });
        golden.put(
                "http://example.com/" + "a".repeat(200),
                new String[] {
                    "08bb3c91e51479c8681a697497be6842", "862b8ba92b1cd9c0e159981a2186c5dc"
                });
        golden.put(
                "",
                new String[] {
                    "726fdb47dd0e0e312e4b4ada316bda92", "e6a825ba047f81a3930255c71472f66d"
                });
        golden.put(
                "\ud800broken",
                new String[] {
                    "a6c0746a285f2ac64f2808e3bc15bd4c", "d97e96307233a43459318f26f6a61aff"
                });
        for (Map.Entry<String, String[]> e : golden.entrySet()) {
            assertThat(f64.of(e.getKey()).toString()).as(e.getKey()).isEqualTo(e.getValue()[0]);
            assertThat(f128.of(e.getKey()).toString()).as(e.getKey()).isEqualTo(e.getValue()[1]);
        }
    }
}
