package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * L1's contract: it answers only for what was added, overwrites per slot, and forgets on demand.
 */
class RecentFingerprintCacheTest {
    private static Fingerprint fp(long hi, long lo) {
        return new Fingerprint(hi, lo);
    }

    @Test
    void answersForWhatWasAddedWithItsTime() {
        RecentFingerprintCache c = new RecentFingerprintCache(1000);
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
        c.remove(a);
        assertThat(c.contains(a)).isFalse();
        assertThat(c.contains(b)).isTrue();
        c.clear();
        assertThat(c.contains(b)).isFalse();
    }

    @Test
    void aNewerFingerprintTakesItsSlot() {
        RecentFingerprintCache c = new RecentFingerprintCache(16);
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

    @Test
    void theEmptyMarkerAndAZeroSizeCacheNeverAnswer() {
        RecentFingerprintCache c = new RecentFingerprintCache(8);
        c.add(fp(0, 0), 7);
        assertThat(c.contains(fp(0, 0))).isFalse();
        RecentFingerprintCache none = new RecentFingerprintCache(0);
        none.add(fp(1, 2), 3);
        none.remove(fp(1, 2));
        assertThat(none.contains(fp(1, 2))).isFalse();
        assertThat(none.timeOf(fp(1, 2))).isEqualTo(RecentFingerprintCache.ABSENT);
        assertThat(none.capacity()).isZero();
    }
}
