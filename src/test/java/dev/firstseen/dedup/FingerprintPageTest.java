package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The compressed page of strategy 2: set semantics, size, and its pinned byte layout. */
class FingerprintPageTest {

    private static TreeSet<Long> randomSet(SplittableRandom rnd, int n, int s) {
        TreeSet<Long> set = new TreeSet<>();
        long bound = s == 63 ? Long.MAX_VALUE : 1L << s;
        while (set.size() < n) {
            set.add(rnd.nextLong(bound));
        }
        return set;
    }

    @ParameterizedTest
    @CsvSource({"1, 8", "3, 8", "200, 8", "1, 20", "17, 20", "512, 20", "1000, 33", "700, 63"})
    void encodeDecodeAndLookUpEveryValue(int n, int s) {
        SplittableRandom rnd = new SplittableRandom(n * 31L + s);
        TreeSet<Long> set = randomSet(rnd, n, s);
        long[] sorted = set.stream().mapToLong(Long::longValue).toArray();
        byte[] page = FingerprintPage.encode(sorted, 0, n, s);

        assertThat(FingerprintPage.decode(page, s)).containsExactly(sorted);
        assertThat(FingerprintPage.size(page)).isEqualTo(n);
        for (long v : sorted) {
            assertThat(FingerprintPage.contains(page, s, v)).as("%d", v).isTrue();
        }
        long bound = s == 63 ? Long.MAX_VALUE : 1L << s;
        int absent = 0;
        for (int i = 0; i < 20_000; i++) {
            long v = rnd.nextLong(bound);
            assertThat(FingerprintPage.contains(page, s, v)).isEqualTo(set.contains(v));
            absent += set.contains(v) ? 0 : 1;
        }
        assertThat(absent).isPositive();
        // Elias-Fano's size: n · (log2(2^s / n) + 2) bits, plus the header and rounding.
        double bits = n * (Math.max(0, s - Math.log(n) / Math.log(2)) + 2);
        assertThat(page.length * 8.0).isLessThanOrEqualTo(bits + n + 3 * 8 + 16);
    }

    /**
     * A merge that keeps the low parts' width copies the core's bits in runs: new values all below
     * the core, all above its last entry (past the bits the core uses), in one bucket, and spread,
     * must give the bytes the encoder writes.
     */
    @ParameterizedTest
    @CsvSource({
        "12, 300, below", "12, 300, above", "20, 300, bucket", "12, 300, spread",
        "20, 200, above", "40, 100, below", "63, 100, spread", "8, 40, spread"
    })
    void aMergeIntoTheSameWidthGivesTheEncodersBytes(int s, int n, String where) {
        SplittableRandom rnd = new SplittableRandom(s * 7L + n + where.hashCode());
        long span = (s == 63 ? Long.MAX_VALUE : 1L << s) / 4;
        TreeSet<Long> core = new TreeSet<>();
        while (core.size() < n) {
            core.add(span + rnd.nextLong(span)); // the second quarter of the universe
        }
        int l = FingerprintPage.lowBits(n + FingerprintPage.TAIL_MAX + 1, s); // a bucket's width
        TreeSet<Long> add = new TreeSet<>();
        while (add.size() < FingerprintPage.TAIL_MAX + 1) {
            long v =
                    switch (where) {
                        case "below" -> rnd.nextLong(span);
                        case "above" -> 3 * span + rnd.nextLong(span);
                        case "bucket" -> (core.first() >>> l << l) + rnd.nextLong(1L << l);
                        default -> rnd.nextLong(4 * span);
                    };
            if (!core.contains(v)) {
                add.add(v);
            }
        }
        byte[] page =
                FingerprintPage.encode(core.stream().mapToLong(Long::longValue).toArray(), 0, n, s);
        for (long v : shuffled(add, rnd)) {
            page = FingerprintPage.insert(page, s, v);
        }
        TreeSet<Long> all = new TreeSet<>(core);
        all.addAll(add);
        long[] sorted = all.stream().mapToLong(Long::longValue).toArray();
        assertThat(tailEntries(page)).isZero();
        assertThat(HexFormat.of().formatHex(page))
                .isEqualTo(
                        HexFormat.of()
                                .formatHex(FingerprintPage.encode(sorted, 0, sorted.length, s)));
    }

    /**
     * Every value of small universes looked up, so that every bucket is found from the start and
     * from the end (a lookup counts zeros from whichever end is nearer) and values past the last
     * bucket are absent, with pages whose high parts end inside a word and on a word's end.
     */
    @ParameterizedTest
    @CsvSource({
        "1, 8",
        "2, 8",
        "64, 8",
        "200, 8",
        "255, 8",
        "256, 8",
        "3, 11",
        "100, 11",
        "1500, 11"
    })
    void lookUpEveryValueOfTheUniverse(int n, int s) {
        SplittableRandom rnd = new SplittableRandom(n * 17L + s);
        TreeSet<Long> set = randomSet(rnd, n, s);
        long[] sorted = set.stream().mapToLong(Long::longValue).toArray();
        byte[] page = FingerprintPage.encode(sorted, 0, n, s);
        for (long v = 0; v < 1L << s; v++) {
            assertThat(FingerprintPage.contains(page, s, v)).as("%d", v).isEqualTo(set.contains(v));
        }
    }

    /**
     * The broadword select finds every set bit of words dense, sparse, at either end and random
     * (fixed seed) where clearing the lowest bits one at a time does.
     */
    @Test
    void selectFindsEachSetBitOfAWord() {
        SplittableRandom rnd = new SplittableRandom(5);
        long[] words = new long[2_000];
        words[0] = -1L;
        words[1] = 1L;
        words[2] = Long.MIN_VALUE;
        words[3] = 0x8000_0000_0000_0001L;
        words[4] = 0x00FF_0000_0000_FF00L;
        for (int w = 5; w < words.length; w++) {
            long x = rnd.nextLong();
            words[w] = w % 3 == 0 ? x & rnd.nextLong() & rnd.nextLong() : x; // some sparse
        }
        for (long x : words) {
            long y = x;
            for (int k = 0; k < Long.bitCount(x); k++) {
                assertThat(FingerprintPage.select(x, k))
                        .as("bit %d of %x", k, x)
                        .isEqualTo(Long.numberOfTrailingZeros(y));
                y &= y - 1;
            }
        }
    }

    @Test
    void insertsGoToTheTailThenIntoTheCore() {
        int s = 24;
        SplittableRandom rnd = new SplittableRandom(7);
        TreeSet<Long> set = randomSet(rnd, 3000, s);
        byte[] page = new byte[0];
        TreeSet<Long> in = new TreeSet<>();
        for (long v : set) {
            assertThat(FingerprintPage.contains(page, s, v)).isFalse();
            page = FingerprintPage.insert(page, s, v);
            in.add(v);
            assertThat(FingerprintPage.contains(page, s, v)).isTrue();
            if (in.size() % 97 == 0) {
                assertThat(FingerprintPage.decode(page, s))
                        .containsExactly(in.stream().mapToLong(Long::longValue).toArray());
            }
        }
        assertThat(FingerprintPage.size(page)).isEqualTo(3000);
        for (long v : set) {
            assertThat(FingerprintPage.contains(page, s, v)).isTrue();
        }
    }

    /**
     * When the tail is full, an insert merges tail and core into a new core; that page must be the
     * bytes the encoder writes for the same values, at widths whose low parts are empty (l = 0),
     * short, or long, from an empty core on.
     */
    @ParameterizedTest
    @CsvSource({"5, 32", "6, 60", "8, 250", "12, 700", "20, 900", "40, 300", "63, 200"})
    void aFullTailMergesIntoTheBytesTheEncoderWrites(int s, int count) {
        SplittableRandom rnd = new SplittableRandom(s * 1000L + count);
        TreeSet<Long> in = new TreeSet<>();
        byte[] page = new byte[0];
        int merges = 0;
        for (long v : shuffled(randomSet(rnd, count, s), rnd)) {
            boolean full = tailEntries(page) == FingerprintPage.TAIL_MAX;
            page = FingerprintPage.insert(page, s, v);
            in.add(v);
            if (full) {
                merges++;
                long[] sorted = in.stream().mapToLong(Long::longValue).toArray();
                assertThat(tailEntries(page)).isZero();
                assertThat(HexFormat.of().formatHex(page))
                        .as("after %d values", in.size())
                        .isEqualTo(
                                HexFormat.of()
                                        .formatHex(
                                                FingerprintPage.encode(
                                                        sorted, 0, sorted.length, s)));
            }
        }
        assertThat(merges).isEqualTo(count / (FingerprintPage.TAIL_MAX + 1));
        for (long v : in) {
            assertThat(FingerprintPage.contains(page, s, v)).isTrue();
        }
    }

    private static long[] shuffled(TreeSet<Long> set, SplittableRandom rnd) {
        long[] a = set.stream().mapToLong(Long::longValue).toArray();
        for (int i = a.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            long x = a[i];
            a[i] = a[j];
            a[j] = x;
        }
        return a;
    }

    /** The page's tail count: the byte after its varint entry count. */
    private static int tailEntries(byte[] page) {
        if (page.length == 0) {
            return 0;
        }
        int i = 0;
        while ((page[i] & 0x80) != 0) {
            i++;
        }
        return page[i + 1] & 0x7F; // the top bit marks the layout
    }

    @Test
    void removeTakesOutOneValueAndNothingElse() {
        int s = 20;
        SplittableRandom rnd = new SplittableRandom(8);
        TreeSet<Long> set = randomSet(rnd, 600, s);
        byte[] page = new byte[0];
        for (long v : set) {
            page = FingerprintPage.insert(page, s, v);
        }
        Long[] values = set.toArray(new Long[0]);
        for (int i = 0; i < values.length; i += 2) {
            byte[] before = page;
            page = FingerprintPage.remove(page, s, values[i]);
            assertThat(page).isNotSameAs(before);
        }
        for (int i = 0; i < values.length; i++) {
            assertThat(FingerprintPage.contains(page, s, values[i])).isEqualTo(i % 2 == 1);
        }
        byte[] same = page;
        assertThat(FingerprintPage.remove(page, s, values[0])).isSameAs(same);
        assertThat(FingerprintPage.size(page)).isEqualTo(300);
    }

    @Test
    void splitSeparatesByTheLowestBit() {
        int s = 16;
        TreeSet<Long> set = randomSet(new SplittableRandom(9), 900, s);
        byte[] page = new byte[0];
        for (long v : set) {
            page = FingerprintPage.insert(page, s, v);
        }
        byte[][] halves = FingerprintPage.split(page, s);
        for (long v : set) {
            assertThat(FingerprintPage.contains(halves[(int) (v & 1)], s - 1, v >>> 1)).isTrue();
        }
        assertThat(FingerprintPage.size(halves[0]) + FingerprintPage.size(halves[1]))
                .isEqualTo(900);
    }

    /**
     * The bit reader and writer against a bit-by-bit model, at every width from 0 to 63 and at
     * positions up to the array's end, where they cannot load eight bytes at once.
     */
    @Test
    void bitsReadAndWrittenAsABitByBitModel() {
        SplittableRandom rnd = new SplittableRandom(23);
        for (int trial = 0; trial < 20_000; trial++) {
            byte[] a = new byte[1 + rnd.nextInt(24)];
            rnd.nextBytes(a);
            int w = rnd.nextInt(64);
            if (w > a.length * 8) {
                continue;
            }
            long pos = rnd.nextInt(a.length * 8 - w + 1);
            long expected = 0;
            for (int b = 0; b < w; b++) {
                long at = pos + b;
                expected |= (long) ((a[(int) (at >>> 3)] >>> (at & 7)) & 1) << b;
            }
            assertThat(FingerprintPage.read(a, pos, w))
                    .as("read %d at %d of %d", w, pos, a.length)
                    .isEqualTo(expected);

            // Writing into zeroed bits: exactly those bits change, to the value's.
            for (int b = 0; b < w; b++) {
                long at = pos + b;
                a[(int) (at >>> 3)] &= (byte) ~(1 << (at & 7));
            }
            byte[] cleared = a.clone();
            long v = rnd.nextLong() & (w == 0 ? 0 : -1L >>> (64 - w));
            FingerprintPage.write(a, pos, w, v);
            for (int b = 0; b < a.length * 8; b++) {
                boolean inside = b >= pos && b < pos + w;
                int bit = (a[b >>> 3] >>> (b & 7)) & 1;
                int want =
                        inside ? (int) (v >>> (b - pos)) & 1 : (cleared[b >>> 3] >>> (b & 7)) & 1;
                assertThat(bit).as("bit %d after writing %d bits at %d", b, w, pos).isEqualTo(want);
            }
            assertThat(FingerprintPage.read(a, pos, w)).isEqualTo(v);
        }
    }

    /**
     * The byte layout is part of the state format: changing it makes stored pages unreadable.
     * Values 3, 5, 200, 1000, 1001 at s = 10 (l = 7): header 05 80 (five in the core, none in the
     * tail, high parts first), unary high parts, low bits; then one tail entry (777).
     */
    @Test
    void goldenBytes() {
        byte[] page = FingerprintPage.encode(new long[] {3, 5, 200, 1000, 1001}, 0, 5, 10);
        assertThat(HexFormat.of().formatHex(page)).isEqualTo("05800b0c8302129d06");
        byte[] withTail = FingerprintPage.insert(page, 10, 777);
        assertThat(HexFormat.of().formatHex(withTail)).isEqualTo("058109030b0c8302129d06");
        assertThat(FingerprintPage.decode(withTail, 10))
                .containsExactly(3, 5, 200, 777, 1000, 1001);
        assertThat(Arrays.equals(FingerprintPage.remove(withTail, 10, 777), page)).isTrue();
    }

    /**
     * Pages written before the thirty-eighth session had their low bits before their high parts and
     * the tail count's top bit clear; these are {@link #goldenBytes()}'s pages as that layout wrote
     * them (its golden bytes then). Read from state, they become today's pages.
     */
    @Test
    void pagesOfTheFormerLayoutAreReadAsToday() {
        HexFormat hex = HexFormat.of();
        byte[] former = hex.parseHex("05008302129d060b0c");
        byte[] formerWithTail = hex.parseHex("050109038302129d060b0c");
        assertThat(hex.formatHex(FingerprintPage.fromStored(former, 10)))
                .isEqualTo("05800b0c8302129d06");
        assertThat(hex.formatHex(FingerprintPage.fromStored(formerWithTail, 10)))
                .isEqualTo("058109030b0c8302129d06");
        assertThat(hex.formatHex(former)).isEqualTo("05008302129d060b0c"); // not changed
        // A page of today's layout comes back as a copy of itself.
        byte[] today = FingerprintPage.encode(new long[] {3, 5, 200, 1000, 1001}, 0, 5, 10);
        byte[] read = FingerprintPage.fromStored(today, 10);
        assertThat(read).isEqualTo(today).isNotSameAs(today);
        assertThat(FingerprintPage.fromStored(new byte[0], 10)).isEmpty();
    }

    /**
     * Approximate mode stores a page Rice-coded ({@link FingerprintPage#toStored}), part of the
     * state format. Values 3, 17, 200, 201, 900 at s = 10: header 05 c0 07 (five values, the
     * stored-Rice byte, k = 7, the parameter of fewest bits: 46 against 47 for 6 and 8), then the
     * gaps 3, 14, 183, 1, 699, least significant bit first, each its quotient's zeros, a one and 7
     * low bits. The same set with some of it in the tail is stored the same; read back, it is the
     * page the encoder writes for the set.
     */
    @Test
    void storedRiceGoldenBytes() {
        HexFormat hex = HexFormat.of();
        long[] values = {3, 17, 200, 201, 900};
        byte[] page = FingerprintPage.encode(values, 0, 5, 10);
        byte[] stored = FingerprintPage.toStored(page, 10);
        assertThat(hex.formatHex(stored)).isEqualTo("05c007071dde06c01d");
        byte[] withTail =
                FingerprintPage.append(
                        FingerprintPage.encode(new long[] {17, 201}, 0, 2, 10),
                        10,
                        new long[] {900, 3, 200},
                        3);
        assertThat(hex.formatHex(FingerprintPage.toStored(withTail, 10)))
                .isEqualTo("05c007071dde06c01d");
        assertThat(FingerprintPage.isStoredRice(stored)).isTrue();
        assertThat(FingerprintPage.isFormerLayout(stored)).isFalse();
        assertThat(FingerprintPage.isStoredRice(page)).isFalse();
        assertThat(FingerprintPage.fromStored(stored, 10)).isEqualTo(page);
        assertThat(FingerprintPage.toStored(new byte[0], 10)).isEmpty();
    }

    /**
     * Any page stored Rice-coded and read back is the encoder's page of its set: tails of 0 to 16,
     * widths of 0 to 63, and every value found.
     */
    @ParameterizedTest
    @CsvSource({
        "0, 0", "1, 1", "4, 10", "8, 1", "8, 40", "12, 300", "16, 512", "23, 419", "40, 129",
        "57, 64", "63, 200"
    })
    void anyPageStoredRiceReadsAsItsSet(int s, int n) {
        SplittableRandom rnd = new SplittableRandom(44L * s + n);
        for (int t = 0; t <= FingerprintPage.TAIL_MAX; t += 4) {
            if (n + t == 0 || (s < 6 && n + t > (1 << s))) {
                continue;
            }
            TreeSet<Long> values = randomSet(rnd, n + t, s);
            long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
            byte[] page = coreAndTail(values, n, t, s, rnd);
            byte[] stored = FingerprintPage.toStored(page, s);
            assertThat(FingerprintPage.isStoredRice(stored)).isTrue();
            byte[] read = FingerprintPage.fromStored(stored, s);
            assertThat(HexFormat.of().formatHex(read))
                    .as("s %d, n %d, t %d", s, n, t)
                    .isEqualTo(
                            HexFormat.of()
                                    .formatHex(
                                            FingerprintPage.encode(sorted, 0, sorted.length, s)));
            for (long v : values) {
                assertThat(FingerprintPage.contains(read, s, v)).isTrue();
            }
        }
    }

    /**
     * The stored code is what it is for: on random pages shaped as approximate mode's (a full class
     * of 1% in its two pages: 16-bit suffixes, 327 values; the same at 1e-4: 23 bits, 419; and half
     * as many), with tails of 0 to 16, it takes at least 0.3 bits a value less than the page on the
     * heap (forty-fourth session: 0.58 to 0.72).
     */
    @ParameterizedTest
    @CsvSource({"16, 327", "16, 164", "23, 419", "23, 210"})
    void storedPagesAreSmallerThanTheHeaps(int s, int n) {
        SplittableRandom rnd = new SplittableRandom(45L * s + n);
        long heap = 0;
        long stored = 0;
        long values = 0;
        for (int i = 0; i < 200; i++) {
            int t = i % (FingerprintPage.TAIL_MAX + 1);
            byte[] page = coreAndTail(randomSet(rnd, n + t, s), n, t, s, rnd);
            heap += page.length;
            stored += FingerprintPage.toStored(page, s).length;
            values += n + t;
        }
        double saved = 8.0 * (heap - stored) / values;
        assertThat(saved).as("bits a value saved at s %d, n %d", s, n).isGreaterThan(0.3);
    }

    /** A stored page that does not decode to s-bit values is refused with what is wrong. */
    @Test
    void aCorruptStoredPageIsRefused() {
        HexFormat hex = HexFormat.of();
        byte[] stored = hex.parseHex("05c007071dde06c01d");
        for (String bad :
                new String[] {
                    "05c007071dde06c0", // cut short
                    "05c007071dde06c01d00", // a byte after the values
                    "05c040071dde06c01d", // k = 64
                    "00c007071dde06c01d" // no values
                }) {
            assertThatThrownBy(() -> FingerprintPage.fromStored(hex.parseHex(bad), 10))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("written by a newer FirstSeen, or corrupt");
        }
        // 900 does not fit 9 bits.
        assertThatThrownBy(() -> FingerprintPage.fromStored(stored, 9))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("past 9 bits");
    }

    /**
     * Any page, written in the former layout (the regions swapped back, the top bit cleared) and
     * read from state, is the page again: tails of 0 to 16, cores of 0 to 700, widths from 1 to 63
     * (low parts of 0 bits included), and every value found.
     */
    @ParameterizedTest
    @CsvSource({"1, 2", "4, 10", "8, 0", "8, 40", "12, 300", "25, 700", "40, 129", "63, 64"})
    void anyPageOfTheFormerLayoutReadsAsItself(int s, int n) {
        SplittableRandom rnd = new SplittableRandom(38L * s + n);
        for (int t = 0; t <= FingerprintPage.TAIL_MAX; t += 4) {
            if (s < 6 && n + t > (1 << s)) {
                continue;
            }
            TreeSet<Long> values = randomSet(rnd, n + t, s);
            byte[] page = coreAndTail(values, n, t, s, rnd);
            byte[] former = formerLayout(page, s);
            byte[] read = FingerprintPage.fromStored(former, s);
            assertThat(HexFormat.of().formatHex(read))
                    .as("s %d, n %d, t %d", s, n, t)
                    .isEqualTo(HexFormat.of().formatHex(page));
            for (long v : values) {
                assertThat(FingerprintPage.contains(read, s, v)).isTrue();
            }
        }
    }

    /**
     * A lookup reads a tail entry with one 8-byte load when the page's bytes allow it, past the end
     * of the page's range too (as in {@link PackedFilter}'s arena): whatever bytes lie beyond,
     * every value in the tail or the core is found and no other, at widths of 1 to 63.
     */
    @ParameterizedTest
    @CsvSource({
        "1, 1", "3, 4", "9, 100", "17, 300", "25, 512", "31, 40", "56, 20", "57, 20", "63, 9"
    })
    void lookupsFindTailAndCoreValuesAndNoOtherWhateverFollowsThePage(int s, int n) {
        SplittableRandom rnd = new SplittableRandom(39L * s + n);
        for (int t = 0; t <= FingerprintPage.TAIL_MAX; t++) {
            if (s < 6 && 2 * (n + t) > (1 << s)) {
                continue;
            }
            TreeSet<Long> values = randomSet(rnd, n + t, s);
            byte[] page = coreAndTail(values, n, t, s, rnd);
            for (int after : new int[] {0, 3, 16}) {
                byte[] arena = new byte[5 + page.length + after];
                Arrays.fill(arena, (byte) 0xFF);
                System.arraycopy(page, 0, arena, 5, page.length);
                int to = 5 + page.length;
                for (long v : values) {
                    assertThat(FingerprintPage.contains(arena, 5, to, s, v))
                            .as("s %d, n %d, t %d, %d bytes after: %d", s, n, t, after, v)
                            .isTrue();
                }
                for (int k = 0; k < 200; k++) {
                    long v = s == 63 ? rnd.nextLong() >>> 1 : rnd.nextLong(1L << s);
                    assertThat(FingerprintPage.contains(arena, 5, to, s, v))
                            .as("s %d, n %d, t %d, %d bytes after: %d", s, n, t, after, v)
                            .isEqualTo(values.contains(v));
                }
            }
            for (long v : values) {
                assertThat(FingerprintPage.contains(page, s, v)).isTrue();
            }
        }
    }

    /** Suffixes of no bits: the one value, 0, is in a page once it has an entry, tail or core. */
    @Test
    void aPageOfZeroBitSuffixesHoldsZeroOnceItHasAnEntry() {
        byte[] empty = new byte[0];
        assertThat(FingerprintPage.contains(empty, 0, 0)).isFalse();
        byte[] tail = FingerprintPage.insert(empty, 0, 0);
        assertThat(FingerprintPage.contains(tail, 0, 0)).isTrue();
        assertThat(FingerprintPage.contains(FingerprintPage.encode(new long[] {0}, 0, 1, 0), 0, 0))
                .isTrue();
    }

    /**
     * A page of {@code values} in random order: the first {@code n} encoded as its core, the other
     * {@code t} appended to its tail.
     */
    private static byte[] coreAndTail(
            TreeSet<Long> values, int n, int t, int s, SplittableRandom rnd) {
        long[] shuffled = shuffled(values, rnd);
        long[] core = Arrays.copyOf(shuffled, n);
        Arrays.sort(core);
        byte[] page = FingerprintPage.encode(core, 0, n, s);
        return t == 0
                ? page
                : FingerprintPage.append(page, s, Arrays.copyOfRange(shuffled, n, n + t), t);
    }

    /** {@code page} as the layout before the thirty-eighth session wrote it. */
    static byte[] formerLayout(byte[] page, int s) {
        if (page.length == 0) {
            return page;
        }
        int i = 0;
        int n = 0;
        for (int shift = 0; ; shift += 7) {
            int b = page[i++] & 0xFF;
            n |= (b & 0x7F) << shift;
            if (b < 0x80) {
                break;
            }
        }
        int t = page[i] & 0x7F;
        int tailEnd = i + 1 + (int) (((long) t * s + 7) / 8);
        int lower = (int) (((long) n * FingerprintPage.lowBits(n, s) + 7) / 8);
        int upper = page.length - tailEnd - lower;
        byte[] f = new byte[page.length];
        System.arraycopy(page, 0, f, 0, tailEnd);
        f[i] = (byte) t;
        System.arraycopy(page, tailEnd + upper, f, tailEnd, lower);
        System.arraycopy(page, tailEnd, f, tailEnd + lower, upper);
        return f;
    }
}
