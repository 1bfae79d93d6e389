package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Strategy 2 as a whole: zero false negatives over every inserted key, a measured rate within a
 * stated bound of the one its classes promise (and never above the configured rate), and its size.
 * Fixed seeds; the fingerprints are uniform, as SipHash's are.
 */
class FingerprintFilterTest {

    /** The class schedule keeps Σ capacity / 2^width under the target for as long as it grows. */
    @ParameterizedTest
    @CsvSource({"128, 1e-4", "1, 1e-2", "100000, 1e-6", "128, 0.5"})
    void classesStayWithinTheTargetRate(long n0, double p) {
        double sum = 0;
        int j = 0;
        for (FingerprintClass c; (c = FingerprintFilterMath.classFor(n0, p, j)) != null; j++) {
            assertThat(c.capacity)
                    .isGreaterThanOrEqualTo(
                            (long) (n0 * Math.pow(FingerprintFilterMath.GROWTH, j)));
            // The smallest width that holds that capacity within the class's share.
            assertThat(Math.floor(Math.scalb(p * FingerprintFilterMath.share(j), c.width - 1)))
                    .isLessThan(n0 * Math.pow(FingerprintFilterMath.GROWTH, j));
            sum += Math.scalb((double) c.capacity, -c.width);
        }
        assertThat(j).isGreaterThan(5);
        assertThat(sum).isLessThanOrEqualTo(p);
    }

    @ParameterizedTest
    @CsvSource({"1e-2, 100, 300000", "1e-3, 128, 200000", "1e-4, 128, 200000"})
    void noFalseNegativesAndTheRateItPromises(double p, long n0, int n) throws Exception {
        SplittableRandom rnd = new SplittableRandom(42);
        KeyFilter f = new KeyFilter("k", FilterMeta.createFingerprints(n0, p), true);
        List<Fingerprint> in = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            if (!f.mightContain(fp, PageSource.NOTHING_STORED)) {
                f.insert(fp, PageSource.NOTHING_STORED);
                in.add(fp);
            }
        }
        assertThat(f.meta.layerCount()).isGreaterThan(3);
        for (Fingerprint fp : in) {
            assertThat(f.mightContain(fp, PageSource.NOTHING_STORED)).isTrue();
        }
        double promised = FingerprintFilterMath.rate(f.meta);
        assertThat(promised).isLessThanOrEqualTo(p);
        int trials = (int) Math.min(20_000_000, 400 / promised);
        int fp = 0;
        for (int i = 0; i < trials; i++) {
            if (f.mightContain(
                    new Fingerprint(rnd.nextLong(), rnd.nextLong()), PageSource.NOTHING_STORED)) {
                fp++;
            }
        }
        double measured = (double) fp / trials;
        // The promise is an expectation over random fingerprints: 400 expected hits, so a
        // measured rate off by more than 5 standard deviations (25%) would be a real difference.
        double sd = Math.sqrt(promised / trials);
        assertThat(Math.abs(measured - promised)).isLessThan(5 * sd);
        assertThat(measured).isLessThan(p);
    }

    /**
     * Size of one key of 500,000 URLs (class 4 of n0 = 128): about log2(1/p) + log2(5 · 6) + 2 bits
     * per URL in its newest class, plus page headers. At 1e-4 that is within the design's 3 bytes
     * per URL; at 1% it is 1.9, above the 1.5 the issue hoped for (see the README).
     */
    @ParameterizedTest
    @CsvSource({"1e-4, 2.75", "1e-2, 1.95"})
    void bytesPerUrl(double p, double bound) throws Exception {
        SplittableRandom rnd = new SplittableRandom(43);
        KeyFilter f = new KeyFilter("k", FilterMeta.createFingerprints(128, p), true);
        int n = 500_000;
        for (int i = 0; i < n; i++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            if (!f.mightContain(fp, PageSource.NOTHING_STORED)) {
                f.insert(fp, PageSource.NOTHING_STORED);
            }
        }
        double perUrl = (double) f.pageBytes() / f.meta.count();
        assertThat(perUrl).isLessThan(bound);
        assertThat(f.bytes() / (double) f.meta.count()).isLessThan(bound + 0.2);
    }

    /**
     * A key of exact mode's fingerprint pages, turned into this filter ({@link
     * KeyFilter#fromExact}, classes built whole): every URL it held is found, in the heap and after
     * its pages went through state; each class but the newest is full; the rate new URLs meet is
     * the one its classes promise, within the target; it grows on by inserts; and it is about the
     * size inserting the same URLs one at a time gives.
     */
    @ParameterizedTest
    @CsvSource({"1e-2, 512, 200000", "1e-4, 128, 200000"})
    void aKeyConvertedFromExactPagesKeepsEveryUrl(double p, long n0, int n) throws Exception {
        SplittableRandom rnd = new SplittableRandom(47);
        ExactKey k = exactKey(rnd, p, n0, n);
        KeyFilter f =
                KeyFilter.fromExact(
                        "k",
                        FilterMeta.createFingerprints(n0, p),
                        k.exact,
                        null,
                        PageSource.NOTHING_STORED);
        assertConvertedAsInsertsWould(f, k, p, rnd);
    }

    /**
     * A key too large for the heap to gather a class of whole (here builders limited to a few
     * thousand prefixes, where {@link KeyFilter#buildLimit} is a 32nd of the slot's heap) writes
     * what it gathered of that class and merges the rest into it a chunk at a time: the same filter
     * as inserts would give, every URL kept. At 20% most chunks hold URLs that share a prefix, and
     * those that a full class leaves over must all go on to the next. A builder, whole or by
     * merges, keeps a prefix that an older class matches where an insert would drop it, so at 20%
     * it holds 18% more prefixes than inserts (199,330 against 168,298 here) and 15% more bytes.
     */
    @ParameterizedTest
    @CsvSource({"1e-2, 20000, 2", "1e-4, 7000, 2", "0.2, 3000, 16"})
    void aClassPastTheBuildersLimitGoesOnByMerges(double p, int limit, double bytesWithin)
            throws Exception {
        long n0 = 512;
        int n = 200_000;
        SplittableRandom rnd = new SplittableRandom(48);
        ExactKey k = exactKey(rnd, p, n0, n);
        KeyFilter.ClassBuilder b =
                KeyFilter.builder("k", FilterMeta.createFingerprints(n0, p), limit);
        KeyFilter f = b.addExact(k.exact, null, PageSource.NOTHING_STORED).done();
        // Past the limit in a class, every URL but the next class's first limit went by merges.
        assertThat(b.merged()).isGreaterThan(n / 2).isLessThan(n);
        assertConvertedAsInsertsWould(f, k, p, rnd, bytesWithin);
    }

    /**
     * A class that passes the builder's limit but never fills comes out of its merges as it comes
     * out of a build that gathers it whole: the same pages, byte for byte. With pages that split
     * past 16 entries, a merge also splits pages that it adds no URL to.
     */
    @ParameterizedTest
    @CsvSource({"1024", "16"})
    void mergesWriteThePagesOfAWholeBuild(int pageEntries) throws Exception {
        double p = 1e-2;
        long n0 = 512;
        // Classes 0 to 2 hold 655, 3,495 and 13,981 URLs at 1%, class 3 33,554: it is the newest.
        int n = 48_000;
        SplittableRandom rnd = new SplittableRandom(49);
        KeyFilter whole =
                KeyFilter.builder(
                                "k",
                                FilterMeta.createFingerprints(n0, p).splitPagesPast(pageEntries),
                                1 << 30)
                        .addExact(exactKey(rnd, p, n0, n).exact, null, PageSource.NOTHING_STORED)
                        .done();
        KeyFilter.ClassBuilder b =
                KeyFilter.builder(
                        "k",
                        FilterMeta.createFingerprints(n0, p).splitPagesPast(pageEntries),
                        14_000);
        rnd = new SplittableRandom(49);
        KeyFilter merged =
                b.addExact(exactKey(rnd, p, n0, n).exact, null, PageSource.NOTHING_STORED).done();
        assertThat(b.merged()).isGreaterThan(n - 18_131 - 14_000 - 100);
        assertThat(merged.meta.classCount()).isEqualTo(4).isEqualTo(whole.meta.classCount());
        assertThat(merged.meta.toString()).isEqualTo(whole.meta.toString());
        assertThat(merged.meta.pages(3)).isGreaterThan(20);
        for (int c = 0; c < 4; c++) {
            for (int i = 0; i < whole.meta.pages(c); i++) {
                assertThat(merged.page(c, i, PageSource.NOTHING_STORED))
                        .as("class %d page %d", c, i)
                        .isEqualTo(whole.page(c, i, PageSource.NOTHING_STORED));
            }
        }
    }

    /**
     * Two URLs of one prefix in class 0 and of two in class 1, first in a chunk that fills class 0:
     * the first of a chunk's new prefixes is never in the spread that goes in, so both go on to
     * class 1, and each is found there.
     */
    @Test
    void urlsOfOnePrefixThatAFullClassLeavesOverAllGoOn() throws Exception {
        double p = 1e-2;
        long n0 = 512;
        FingerprintClass first = FingerprintFilterMath.classFor(n0, p, 0);
        KeyFilter.ClassBuilder b =
                KeyFilter.builder("k", FilterMeta.createFingerprints(n0, p), 100);
        SplittableRandom rnd = new SplittableRandom(51);
        List<Long> in = new ArrayList<>();
        // 100 gathered, then chunks of 100: class 0 (655 at 1%) holds about 600 before the
        // seventh hundred, which has room for about 55 of its prefixes.
        for (int i = 0; i < 600; i++) {
            in.add(rnd.nextLong() | Long.MIN_VALUE); // no prefix of 0
        }
        in.add(0L);
        in.add(1L << (63 - first.width)); // the same prefix of class 0's width, not of class 1's
        for (int i = 0; i < 98; i++) {
            in.add(rnd.nextLong() | Long.MIN_VALUE);
        }
        for (long hi : in) {
            b.add(hi);
        }
        KeyFilter f = b.done();
        assertThat(f.meta.classCount()).isEqualTo(2);
        assertThat(f.meta.entries(0)).isEqualTo(first.capacity);
        for (long hi : in) {
            assertThat(f.mightContain(new Fingerprint(hi, 0), PageSource.NOTHING_STORED))
                    .as("%x", hi)
                    .isTrue();
        }
    }

    /**
     * Builders of random limits over random rates, first classes and page sizes, fed random URLs
     * (fixed seeds): every URL is found, in the heap and through state; each class but the newest
     * is full; each class's pages hold exactly the prefixes its count says, none past its page size
     * where it can still split; and the rate stays within the target.
     */
    @Test
    void mergesKeepEveryUrlAcrossLimitsRatesAndPageSizes() throws Exception {
        double[] rates = {0.3, 0.05, 1e-2, 1e-3, 1e-4, 1e-9};
        long[] firstClasses = {1, 16, 512};
        int[] pageSizes = {8, 64, 1024};
        SplittableRandom rnd = new SplittableRandom(52);
        long mergedInAll = 0;
        for (int run = 0; run < 120; run++) {
            double p = rates[rnd.nextInt(rates.length)];
            long n0 = firstClasses[rnd.nextInt(firstClasses.length)];
            int pageEntries = pageSizes[rnd.nextInt(pageSizes.length)];
            int n = 1 + rnd.nextInt(30_000);
            int limit = 2 + rnd.nextInt(Math.max(1, n / 2));
            String what =
                    String.format(
                            java.util.Locale.ROOT,
                            "run %d: p %s, n0 %d, pages of %d, %d URLs, limit %d",
                            run,
                            p,
                            n0,
                            pageEntries,
                            n,
                            limit);
            KeyFilter.ClassBuilder b =
                    KeyFilter.builder(
                            "k",
                            FilterMeta.createFingerprints(n0, p).splitPagesPast(pageEntries),
                            limit);
            long[] in = new long[n];
            for (int i = 0; i < n; i++) {
                in[i] = rnd.nextLong();
                b.add(in[i]);
            }
            KeyFilter f = b.done();
            mergedInAll += b.merged();
            FilterMeta m = f.meta;
            assertThat(FingerprintFilterMath.rate(m)).as(what).isLessThanOrEqualTo(p);
            assertThat(m.count()).as(what).isLessThanOrEqualTo(n);
            for (int c = 0; c < m.classCount(); c++) {
                if (c < m.classCount() - 1) {
                    assertThat(m.entries(c)).as(what).isEqualTo(m.capacity(c));
                }
                assertThat(m.wantsSplit(c)).as(what).isFalse();
                long held = 0;
                for (int i = 0; i < m.pages(c); i++) {
                    byte[] page = f.page(c, i, PageSource.NOTHING_STORED);
                    long[] values = FingerprintPage.decode(page, m.suffixBits(c, i));
                    for (int k = 1; k < values.length; k++) {
                        assertThat(values[k]).as(what).isGreaterThan(values[k - 1]);
                    }
                    for (long u : values) {
                        long v = (u << (m.width(c) - m.suffixBits(c, i))) | i;
                        assertThat(m.page(c, v)).as(what).isEqualTo(i);
                    }
                    held += values.length;
                }
                assertThat(held).as(what + ", class " + c).isEqualTo(m.entries(c));
            }
            java.util.Map<Integer, byte[]> stored = new java.util.HashMap<>();
            f.drainDirty((id, page) -> stored.put(id, f.stored(id, page)));
            KeyFilter back = new KeyFilter("k", m.copy(), false);
            for (long hi : in) {
                Fingerprint fp = new Fingerprint(hi, 0);
                assertThat(f.mightContain(fp, PageSource.NOTHING_STORED)).as(what).isTrue();
                assertThat(back.mightContain(fp, stored::get)).as(what).isTrue();
            }
        }
        assertThat(mergedInAll).isGreaterThan(500_000);
    }

    /**
     * Past the last class a filter can have (at 1e-18 a class after the first would need prefixes
     * wider than 63 bits), the newest class takes every URL: by merges of as many chunks as come,
     * or by one merge at the end, the same pages.
     */
    @Test
    void aSaturatedClassTakesEveryUrlByMerges() throws Exception {
        double p = 1e-18;
        int n = 20_000;
        KeyFilter[] built = new KeyFilter[2];
        long[] merged = new long[2];
        int[] limits = {1_000, 1 << 30};
        for (int b = 0; b < 2; b++) {
            KeyFilter.ClassBuilder builder =
                    KeyFilter.builder("k", FilterMeta.createFingerprints(4, p), limits[b]);
            built[b] =
                    builder.addExact(
                                    exactKey(new SplittableRandom(50), p, 4, n).exact,
                                    null,
                                    PageSource.NOTHING_STORED)
                            .done();
            merged[b] = builder.merged();
        }
        KeyFilter f = built[0];
        assertThat(f.meta.saturated).isTrue();
        assertThat(f.meta.classCount()).isEqualTo(1);
        assertThat(f.meta.count()).isEqualTo(n);
        assertThat(merged[0]).isEqualTo(n - f.meta.capacity(0)).isEqualTo(merged[1]);
        assertThat(f.meta.toString()).isEqualTo(built[1].meta.toString());
        for (int i = 0; i < f.meta.pages(0); i++) {
            assertThat(f.page(0, i, PageSource.NOTHING_STORED))
                    .isEqualTo(built[1].page(0, i, PageSource.NOTHING_STORED));
        }
        SplittableRandom rnd = new SplittableRandom(50);
        for (int i = 0; i < n; i++) {
            assertThat(
                            f.mightContain(
                                    new Fingerprint(rnd.nextLong(), 0), PageSource.NOTHING_STORED))
                    .isTrue();
        }
    }

    /** A key of exact mode's pages, and a key of the same URLs inserted one at a time. */
    private record ExactKey(KeyFilter exact, KeyFilter oneByOne, List<Fingerprint> in) {}

    private static ExactKey exactKey(SplittableRandom rnd, double p, long n0, int n)
            throws Exception {
        KeyFilter exact =
                new KeyFilter(
                        "k", FilterMeta.createExactFingerprints(64).splitPagesPast(128), true);
        KeyFilter oneByOne = new KeyFilter("k", FilterMeta.createFingerprints(n0, p), true);
        List<Fingerprint> in = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            // 64-bit fingerprints, as exact mode's pages take them: the low half is not read.
            Fingerprint fp = new Fingerprint(rnd.nextLong(), 0);
            exact.insert(fp, PageSource.NOTHING_STORED);
            in.add(fp);
            if (!oneByOne.mightContain(fp, PageSource.NOTHING_STORED)) {
                oneByOne.insert(fp, PageSource.NOTHING_STORED);
            }
        }
        assertThat(exact.meta.pages(0)).isGreaterThan(n / 256);
        return new ExactKey(exact, oneByOne, in);
    }

    private static void assertConvertedAsInsertsWould(
            KeyFilter f, ExactKey k, double p, SplittableRandom rnd) throws Exception {
        assertConvertedAsInsertsWould(f, k, p, rnd, 2);
    }

    private static void assertConvertedAsInsertsWould(
            KeyFilter f, ExactKey k, double p, SplittableRandom rnd, double bytesWithin)
            throws Exception {
        KeyFilter oneByOne = k.oneByOne;
        List<Fingerprint> in = k.in;
        int n = in.size();
        assertThat(f.meta.classCount()).isGreaterThan(2);
        for (int c = 0; c < f.meta.classCount(); c++) {
            if (c < f.meta.classCount() - 1) { // full, split as inserts split it
                assertThat(f.meta.entries(c)).isEqualTo(f.meta.capacity(c));
                assertThat(f.meta.pages(c)).isEqualTo(oneByOne.meta.pages(c));
            }
            assertThat(f.meta.wantsSplit(c)).as("class %d", c).isFalse();
        }
        // Only a prefix that an earlier class or another URL holds already goes in once for two.
        assertThat(f.meta.count()).isLessThanOrEqualTo(n).isGreaterThan((long) (n * (1 - p)));
        assertThat((double) f.pageBytes())
                .isCloseTo(
                        oneByOne.pageBytes(),
                        org.assertj.core.data.Percentage.withPercentage(bytesWithin));
        java.util.Map<Integer, byte[]> stored = new java.util.HashMap<>();
        f.drainDirty((id, page) -> stored.put(id, f.stored(id, page)));
        KeyFilter back = new KeyFilter("k", f.meta.copy(), false);
        for (Fingerprint fp : in) {
            assertThat(f.mightContain(fp, PageSource.NOTHING_STORED)).isTrue();
            assertThat(back.mightContain(fp, stored::get)).isTrue();
        }

        double promised = FingerprintFilterMath.rate(f.meta);
        assertThat(promised).isLessThanOrEqualTo(p);
        int trials = (int) Math.min(20_000_000, 400 / promised);
        int hits = 0;
        for (int i = 0; i < trials; i++) {
            if (back.mightContain(new Fingerprint(rnd.nextLong(), 0), stored::get)) {
                hits++;
            }
        }
        // 400 expected hits: 5 standard deviations are a quarter of the promise.
        assertThat(Math.abs((double) hits / trials - promised))
                .isLessThan(5 * Math.sqrt(promised / trials));

        List<Fingerprint> more = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), 0);
            if (!back.mightContain(fp, stored::get)) {
                back.insert(fp, stored::get);
                more.add(fp);
            }
        }
        for (Fingerprint fp : more) {
            assertThat(back.mightContain(fp, stored::get)).isTrue();
        }
        assertThat(FingerprintFilterMath.rate(back.meta)).isLessThanOrEqualTo(p);
    }

    @Test
    void removeForgetsOneUrlAndKeepsTheOthers() throws Exception {
        KeyFilter f = new KeyFilter("k", FilterMeta.createFingerprints(16, 1e-4), true);
        List<Fingerprint> in = filled(f, 44, 20_000);
        for (int i = 0; i < in.size(); i += 3) {
            assertThat(f.remove(in.get(i), PageSource.NOTHING_STORED)).isTrue();
        }
        int stillThere = 0;
        for (int i = 0; i < in.size(); i++) {
            boolean has = f.mightContain(in.get(i), PageSource.NOTHING_STORED);
            if (i % 3 != 0) {
                assertThat(has).isTrue();
            } else if (has) {
                stillThere++; // a false positive of the remaining prefixes
            }
        }
        assertThat(stillThere).isLessThan(5);
        assertThat(f.meta.count()).isEqualTo(20_000 - (20_000 + 2) / 3);
    }

    /** Pages written back and loaded again answer alike: what a restore does. */
    @Test
    void pagesRoundTripThroughState() throws Exception {
        KeyFilter f = new KeyFilter("k", FilterMeta.createFingerprints(64, 1e-3), true);
        List<Fingerprint> in = filled(f, 45, 50_000);
        java.util.Map<Integer, byte[]> stored = new java.util.HashMap<>();
        f.drainDirty((id, page) -> stored.put(id, page.clone()));
        KeyFilter back = new KeyFilter("k", f.meta.copy(), false);
        for (Fingerprint fp : in) {
            assertThat(back.mightContain(fp, stored::get)).isTrue();
        }
        assertThat(back.pageBytes()).isEqualTo(f.pageBytes());
    }

    /**
     * State written before the thirty-eighth session holds pages with their low bits first: such
     * pages are read (every URL found), a key goes on growing over them, the pages it changes are
     * written in today's layout, and state holding both layouts at once reads alike.
     */
    @Test
    void pagesOfTheFormerLayoutInStateAreReadAndGrownOn() throws Exception {
        KeyFilter f = new KeyFilter("k", FilterMeta.createFingerprints(64, 1e-3), true);
        List<Fingerprint> in = filled(f, 46, 30_000);
        java.util.Map<Integer, byte[]> stored = new java.util.HashMap<>();
        f.drainDirty((id, page) -> stored.put(id, page.clone()));
        FilterMeta meta = f.meta.copy();
        int former = 0;
        for (int c = 0; c < meta.classCount(); c++) {
            for (int i = 0; i < meta.pages(c); i++) {
                int id = BlockedBloom.pageId(c, i);
                byte[] p = stored.get(id);
                if (p != null && p.length > 0) {
                    stored.put(id, FingerprintPageTest.formerLayout(p, meta.suffixBits(c, i)));
                    former++;
                }
            }
        }
        assertThat(former).isGreaterThan(50); // several classes of many pages
        KeyFilter back = new KeyFilter("k", meta.copy(), false);
        for (Fingerprint fp : in) {
            assertThat(back.mightContain(fp, stored::get)).isTrue();
        }
        assertThat(back.pageBytes()).isEqualTo(f.pageBytes());
        // Grown on: new URLs go into pages read in the former layout, splits and merges included.
        SplittableRandom rnd = new SplittableRandom(47);
        for (int i = 0; i < 20_000; i++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            back.insert(fp, stored::get);
            in.add(fp);
        }
        int written = 0;
        java.util.Map<Integer, byte[]> changed = new java.util.HashMap<>();
        back.drainDirty((id, page) -> changed.put(id, page.clone()));
        for (byte[] p : changed.values()) {
            if (p.length > 0) {
                assertThat(FingerprintPage.fromStored(p, 63)).isEqualTo(p); // today's layout
                written++;
            }
        }
        assertThat(written).isPositive();
        stored.putAll(changed);
        KeyFilter mixed = new KeyFilter("k", back.meta.copy(), false);
        for (Fingerprint fp : in) {
            assertThat(mixed.mightContain(fp, stored::get)).isTrue();
        }
    }

    /** Inserts {@code n} random fingerprints (seed {@code seed}) into {@code f}; returns them. */
    private static List<Fingerprint> filled(KeyFilter f, long seed, int n) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Fingerprint> in = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            f.insert(fp, PageSource.NOTHING_STORED);
            in.add(fp);
        }
        return in;
    }
}
