package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
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
}
