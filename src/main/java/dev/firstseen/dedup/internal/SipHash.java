package dev.firstseen.dedup.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * SipHash (Aumasson and Bernstein, "SipHash: a fast short-input PRF", INDOCRYPT 2012; the 64- and
 * 128-bit variants of the reference implementation, github.com/veorq/SipHash), over a byte array,
 * keyed by {@code k0, k1} (the key's bytes 0-7 and 8-15, little-endian). {@code c} and {@code d}
 * are the compression and finalization rounds: 2 and 4 for SipHash-2-4. Outputs are little-endian
 * words.
 *
 * <p>A keyed PRF: without the key, nobody can compute a value, let alone find two inputs with the
 * same one, whatever inputs they choose.
 */
public final class SipHash {
    private SipHash() {}

    /* Eight message bytes as one little-endian word: one bounds check and one load instead of
    eight, which is most of the difference from reading chars one by one (FingerprintBenchmark). */
    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The 128-bit variant: {out bytes 0-7, out bytes 8-15}. */
    public static long[] hash128(long k0, long k1, int c, int d, byte[] bytes) {
        State v = absorbAll(new State(k0, k1, true), c, bytes);
        v.v2 ^= 0xee;
        v.rounds(d);
        long out0 = v.v0 ^ v.v1 ^ v.v2 ^ v.v3;
        v.v1 ^= 0xdd;
        v.rounds(d);
        return new long[] {out0, v.v0 ^ v.v1 ^ v.v2 ^ v.v3};
    }

    /** The 64-bit variant, SipHash as the paper defines it. */
    public static long hash64(long k0, long k1, int c, int d, byte[] bytes) {
        State v = absorbAll(new State(k0, k1, false), c, bytes);
        v.v2 ^= 0xff;
        v.rounds(d);
        return v.v0 ^ v.v1 ^ v.v2 ^ v.v3;
    }

    private static State absorbAll(State v, int c, byte[] bytes) {
        int len = bytes.length;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            v.absorb((long) LE_LONG.get(bytes, i), c);
        }
        long b = ((long) len) << 56;
        for (int j = len - 1; j >= i; j--) {
            b |= (long) (bytes[j] & 0xFF) << (8 * (j - i));
        }
        v.absorb(b, c);
        return v;
    }

    /** The four state words; one per call, which the JIT keeps in registers. */
    private static final class State {
        long v0;
        long v1;
        long v2;
        long v3;

        State(long k0, long k1, boolean wide) {
            v0 = k0 ^ 0x736f6d6570736575L;
            v1 = k1 ^ 0x646f72616e646f6dL ^ (wide ? 0xee : 0); // 0xee: the 128-bit variant
            v2 = k0 ^ 0x6c7967656e657261L;
            v3 = k1 ^ 0x7465646279746573L;
        }

        void absorb(long m, int c) {
            v3 ^= m;
            rounds(c);
            v0 ^= m;
        }

        void rounds(int n) {
            for (int r = 0; r < n; r++) {
                v0 += v1;
                v1 = Long.rotateLeft(v1, 13) ^ v0;
                v0 = Long.rotateLeft(v0, 32);
                v2 += v3;
                v3 = Long.rotateLeft(v3, 16) ^ v2;
                v0 += v3;
                v3 = Long.rotateLeft(v3, 21) ^ v0;
                v2 += v1;
                v1 = Long.rotateLeft(v1, 17) ^ v2;
                v2 = Long.rotateLeft(v2, 32);
            }
        }
    }
}
