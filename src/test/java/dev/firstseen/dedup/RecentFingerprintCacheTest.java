package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * L1's contract: it answers only for what was added, overwrites per slot, forgets on demand, and
 * keeps times only once asked to.
 */
class RecentFingerprintCacheTest {
    private static Fingerprint fp(long hi, long lo) {
        return new Fingerprint(hi, lo);
    }

    @Test
    void answersForWhatWasAddedWithItsTime() {
        RecentFingerprintCache c = new RecentFingerprintCache(1000);
        c.keepTimes();
        assertThat(c.capacity()).isEqualTo(1024);
        Fingerprint a = fp(1, 2);
        Fingerprint b = fp(3, 4);
        assertThat(c.timeOf(a)).isEqualTo(RecentFingerprintCache.ABSENT);
        c.add(a, 42);
        c.add(b);
        assertThat(c.contains(a)).isTrue();
        assertThat(c.timeOf(a)).isEqualTo(42);
        assertThat(c.timeOf(b)).isEqualTo(RecentFingerprintCache.UNKNOWN);
        // Same slot (same lo), another hi: not a hit.
        assertThat(c.contains(fp(9, 2))).isFalse();
        // Same hi, another lo in the same slot (lo 2 + 1024): a 128-bit cache compares lo too.
        assertThat(c.contains(fp(1, 2 + 1024))).isFalse();
        c.remove(a);
        assertThat(c.contains(a)).isFalse();
        assertThat(c.contains(b)).isTrue();
        c.clear();
        assertThat(c.contains(b)).isFalse();
    }

    @Test
    void timesAreUnknownUntilKept() {
        RecentFingerprintCache c = new RecentFingerprintCache(16, 64);
        Fingerprint a = FingerprintFunction.fromHi(11);
        Fingerprint b = FingerprintFunction.fromHi(12);
        c.add(a, 42);
        assertThat(c.keepsTimes()).isFalse();
        assertThat(c.timeOf(a)).isEqualTo(RecentFingerprintCache.UNKNOWN);
        c.keepTimes();
        // Added before: its time was not kept, and an unknown time sends a rule to the store.
        assertThat(c.timeOf(a)).isEqualTo(RecentFingerprintCache.UNKNOWN);
        c.add(b, 43);
        assertThat(c.timeOf(b)).isEqualTo(43);
        assertThat(c.bytes()).isEqualTo(2 * 16 * 8);
    }

    @Test
    void aNewerFingerprintTakesItsSlot() {
        RecentFingerprintCache c = new RecentFingerprintCache(16);
        c.keepTimes();
        Fingerprint old = fp(1, 5);
        Fingerprint newer = fp(2, 21); // slot (21 ^ (21 >>> 29)) & 15 = 5, as for lo 5
        c.add(old, 1);
        c.add(newer, 2);
        assertThat(c.contains(old)).isFalse();
        assertThat(c.timeOf(newer)).isEqualTo(2);
        // Removing the evicted one leaves the newer one alone.
        c.remove(old);
        assertThat(c.timeOf(newer)).isEqualTo(2);
    }

    /**
     * With 64-bit fingerprints lo is a function of hi, so comparing hi alone answers as comparing
     * both: a random walk of adds, removes and lookups over a few thousand fingerprints, on a table
     * small enough that slots are taken over often, gets the same answers from both layouts.
     */
    @Test
    void hiAloneAnswersAsBothHalvesFor64BitFingerprints() {
        RecentFingerprintCache narrow = new RecentFingerprintCache(256, 64);
        RecentFingerprintCache wide = new RecentFingerprintCache(256, 128);
        narrow.keepTimes();
        wide.keepTimes();
        SplittableRandom rnd = new SplittableRandom(38);
        int hits = 0;
        for (int i = 0; i < 200_000; i++) {
            Fingerprint f = FingerprintFunction.fromHi(1 + rnd.nextInt(4096));
            int op = rnd.nextInt(10);
            if (op < 4) {
                narrow.add(f, i);
                wide.add(f, i);
            } else if (op == 4) {
                narrow.remove(f);
                wide.remove(f);
            } else {
                assertThat(narrow.timeOf(f)).isEqualTo(wide.timeOf(f));
                hits += narrow.contains(f) ? 1 : 0;
            }
        }
        assertThat(hits).isGreaterThan(1000); // the walk met cached fingerprints, not only misses
        assertThat(narrow.bytes()).isEqualTo(256 * 8 + 256 * 8);
        assertThat(wide.bytes()).isEqualTo(2 * 256 * 8 + 256 * 8);
    }

    @Test
    void theEmptyMarkerAndAZeroSizeCacheNeverAnswer() {
        RecentFingerprintCache c = new RecentFingerprintCache(8);
        c.add(fp(0, 0), 7);
        assertThat(c.contains(fp(0, 0))).isFalse();
        RecentFingerprintCache narrow = new RecentFingerprintCache(8, 64);
        narrow.add(fp(0, 5), 7);
        assertThat(narrow.contains(fp(0, 5))).isFalse(); // hi 0 marks an empty slot
        RecentFingerprintCache none = new RecentFingerprintCache(0);
        none.add(fp(1, 2), 3);
        none.remove(fp(1, 2));
        assertThat(none.contains(fp(1, 2))).isFalse();
        assertThat(none.timeOf(fp(1, 2))).isEqualTo(RecentFingerprintCache.ABSENT);
        assertThat(none.capacity()).isZero();
        none.keepTimes();
        assertThat(none.bytes()).isZero();
    }

    @Test
    void onlySixtyFourOr128Bits() {
        assertThatThrownBy(() -> new RecentFingerprintCache(8, 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("64 or 128");
    }
}
