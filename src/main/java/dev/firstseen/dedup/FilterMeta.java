package dev.firstseen.dedup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-key description of a filter: the strategy, the sizing it was created with, and its layers:
 * {@link BlockedBloom} layers (strategy 1, see {@link BloomMath} for the growth rule) or {@link
 * FingerprintClass}es (strategy 2, see {@link FingerprintFilterMath}). Stored in keyed state with
 * {@link FilterMetaSerializer}.
 */
public final class FilterMeta {
    /** Strategy of the compressed-fingerprint filter. */
    public static final byte FINGERPRINTS = 2;

    /**
     * Strategy of exact mode's fingerprint pages ({@link ExactStoreType#PAGES}): one class of
     * {@link #EXACT_WIDTH}-bit prefixes that never fills, so its pages hold the key's seen-set
     * itself, not a filter in front of one.
     */
    public static final byte EXACT_FINGERPRINTS = 3;

    /** Bits of a fingerprint that {@link #EXACT_FINGERPRINTS} keeps: the widest class there is. */
    public static final int EXACT_WIDTH = FingerprintPage.MAX_SUFFIX_BITS;

    public final byte strategy;

    /**
     * The initial capacity, target rate and page-split threshold, which every key of a job shares:
     * one interned object instead of 20 bytes on each cached key's metadata (issue 14).
     */
    private Sizing sizing;

    final List<BloomLayer> layers;

    /*
     * Strategies 2 and 3 describe a class in three longs: width | level << 8 | split << 16,
     * capacity, count (see FingerprintClass). Every cached key holds them, and most keys of
     * a long-tailed crawl have one class, so class 0's are fields here and only classes 1 and up
     * take an array: a one-class key holds no array (40 bytes), and a larger key the same bytes
     * as with one array for all.
     */
    private long word0;
    private long capacity0;
    private long count0;

    /** Classes 1 and up, three longs each. */
    private long[] classes;

    /** Fingerprint classes, 0 for a Bloom filter. */
    private byte classCount;

    private static final long[] NO_CLASSES = new long[0];

    /**
     * Set when the filter could not grow (see {@link #grow()}); not stored, so a restored filter
     * tries once more.
     */
    boolean saturated;

    /**
     * In stored metadata: the key's state also holds a {@link PageJournal} to insert over its pages
     * (a fingerprint filter only; record format 3 of {@link FilterMetaSerializer}). The metadata
     * and pages stored beside a journal are those of the last whole write, before its inserts.
     */
    boolean journal;

    /**
     * Approximate mode with {@code dedup.forget-after}: for each class, the end (exclusive, epoch
     * milliseconds) of the generation it belongs to; null for a filter without generations. A
     * generation's classes are consecutive, and generations come oldest first, so the ends never
     * decrease. A generation is forgotten whole once it ended {@code forget-after} ago.
     */
    private long[] untils;

    FilterMeta(byte strategy, long initialCapacity, double targetFpp, List<BloomLayer> layers) {
        this(strategy, initialCapacity, targetFpp, layers, NO_CLASSES);
    }

    private FilterMeta(
            byte strategy,
            long initialCapacity,
            double targetFpp,
            List<BloomLayer> layers,
            long[] classes) {
        this(
                strategy,
                Sizing.of(initialCapacity, targetFpp, FingerprintClass.PAGE_ENTRIES),
                layers,
                classes);
    }

    private FilterMeta(byte strategy, Sizing sizing, List<BloomLayer> layers, long[] classes) {
        this.strategy = strategy;
        this.sizing = sizing;
        this.layers = layers;
        this.classCount = (byte) (classes.length / 3);
        if (classes.length == 0) {
            this.classes = NO_CLASSES;
        } else {
            this.word0 = classes[0];
            this.capacity0 = classes[1];
            this.count0 = classes[2];
            this.classes =
                    classes.length == 3
                            ? NO_CLASSES
                            : Arrays.copyOfRange(classes, 3, classes.length);
        }
    }

    /** A stored compressed-fingerprint filter. */
    static FilterMeta ofClasses(
            long initialCapacity, double targetFpp, List<FingerprintClass> classes) {
        return ofClasses(FINGERPRINTS, initialCapacity, targetFpp, classes);
    }

    /** A stored filter of strategy {@link #FINGERPRINTS} or {@link #EXACT_FINGERPRINTS}. */
    static FilterMeta ofClasses(
            byte strategy, long initialCapacity, double targetFpp, List<FingerprintClass> classes) {
        long[] packed = new long[classes.size() * 3];
        for (int i = 0; i < classes.size(); i++) {
            pack(packed, i, classes.get(i));
        }
        return new FilterMeta(strategy, initialCapacity, targetFpp, List.of(), packed);
    }

    /**
     * A new key's seen-set in exact mode's fingerprint pages: one {@link #EXACT_WIDTH}-bit class
     * without a capacity, which only splits its pages as it grows. {@code expectedUrls} is kept for
     * the record; the geometry does not depend on it.
     */
    public static FilterMeta createExactFingerprints(long expectedUrls) {
        return ofClasses(
                EXACT_FINGERPRINTS,
                expectedUrls,
                0.0,
                List.of(new FingerprintClass(EXACT_WIDTH, Long.MAX_VALUE, 0, 0, 0)));
    }

    private static void pack(long[] packed, int i, FingerprintClass c) {
        packed[3 * i] = c.width | (long) c.level << 8 | (long) c.split << 16;
        packed[3 * i + 1] = c.capacity;
        packed[3 * i + 2] = c.count;
    }

    /**
     * A new compressed-fingerprint filter (approximate mode): its first class, or an {@link
     * IllegalArgumentException} if even that cannot be built for these settings.
     */
    public static FilterMeta createFingerprints(long initialCapacity, double targetFpp) {
        FingerprintClass first = FingerprintFilterMath.classFor(initialCapacity, targetFpp, 0);
        if (first == null) {
            throw new IllegalArgumentException(
                    "a fingerprint class for "
                            + initialCapacity
                            + " URLs at rate "
                            + targetFpp
                            + " needs prefixes wider than "
                            + FingerprintPage.MAX_SUFFIX_BITS
                            + " bits");
        }
        return ofClasses(initialCapacity, targetFpp, List.of(first));
    }

    /** The expected URLs per key the filter was created with. */
    public long initialCapacity() {
        return sizing.initialCapacity;
    }

    /** The false-positive rate the filter was created with. */
    public double targetFpp() {
        return sizing.targetFpp;
    }

    /** True for both strategies that keep fingerprints in pages (approximate's and exact's). */
    public boolean isFingerprints() {
        return strategy == FINGERPRINTS || strategy == EXACT_FINGERPRINTS;
    }

    /** True if this key's pages are its exact seen-set ({@link ExactStoreType#PAGES}). */
    public boolean isExactFingerprints() {
        return strategy == EXACT_FINGERPRINTS;
    }

    /** A copy of class {@code i}. */
    public FingerprintClass fingerprintClass(int i) {
        return new FingerprintClass(width(i), capacity(i), level(i), split(i), entries(i));
    }

    int classCount() {
        return classCount & 0xFF;
    }

    private long word(int c) {
        return c == 0 ? word0 : classes[3 * c - 3];
    }

    int width(int c) {
        return (int) (word(c) & 0xFF);
    }

    int level(int c) {
        return (int) (word(c) >>> 8 & 0xFF);
    }

    int split(int c) {
        return (int) (word(c) >>> 16);
    }

    long capacity(int c) {
        return c == 0 ? capacity0 : classes[3 * c - 2];
    }

    /** Prefixes in class {@code c}. */
    long entries(int c) {
        return c == 0 ? count0 : classes[3 * c - 1];
    }

    void addEntries(int c, long n) {
        if (c == 0) {
            count0 += n;
        } else {
            classes[3 * c - 1] += n;
        }
    }

    int pages(int c) {
        return FingerprintClass.pages(level(c), split(c));
    }

    /** Class {@code c}'s prefix of {@code fp}. */
    long prefix(int c, Fingerprint fp) {
        return FingerprintClass.prefix(width(c), fp);
    }

    /** The page of class {@code c} that holds prefix {@code v}. */
    int page(int c, long v) {
        return FingerprintClass.page(level(c), split(c), v);
    }

    int suffixBits(int c, int page) {
        return FingerprintClass.suffixBits(width(c), level(c), split(c), page);
    }

    /** The {@code suffixBits}-bit suffix of class {@code c}'s prefix {@code v} in its page. */
    long suffix(int c, long v, int suffixBits) {
        return v >>> (width(c) - suffixBits);
    }

    boolean wantsSplit(int c) {
        return FingerprintClass.wantsSplit(
                width(c), level(c), split(c), entries(c), sizing.pageEntries);
    }

    /** Splits pages of the newest class past {@code entries} entries per page from now on. */
    FilterMeta splitPagesPast(int entries) {
        if (entries != sizing.pageEntries) {
            sizing = Sizing.of(sizing.initialCapacity, sizing.targetFpp, entries);
        }
        return this;
    }

    /**
     * Advances class {@code c}'s split pointer after its page {@link #split} was split; returns the
     * new page.
     */
    int advanceSplit(int c) {
        int level = level(c);
        int split = split(c);
        int created = (1 << level) + split;
        split++;
        if (split == 1 << level) {
            level++;
            split = 0;
        }
        long w = width(c) | (long) level << 8 | (long) split << 16;
        if (c == 0) {
            word0 = w;
        } else {
            classes[3 * c - 3] = w;
        }
        return created;
    }

    /**
     * Adds the next class and returns its index; or, if its prefixes would be too wide, marks the
     * filter {@link #saturated} and returns -1 (the newest class keeps filling past its capacity).
     */
    int growClass() {
        int i = classCount();
        if (untils == null) {
            return addClass(i, 0);
        }
        // The newest generation's next class: its rate share follows its place in the generation.
        int j = 1;
        while (j < i && untils[i - 1 - j] == untils[i - 1]) {
            j++;
        }
        return addClass(j, untils[i - 1]);
    }

    /**
     * Starts a generation that ends at {@code until}: its first class, sized as a new filter's
     * first class, is added and its index returned. If no class can be added, the newest generation
     * is extended to {@code until} instead (its URLs are then forgotten later, never earlier) and
     * -1 returned.
     */
    int startGeneration(long until) {
        if (untils == null) {
            throw new IllegalStateException("a filter without generations");
        }
        int i = classCount();
        int added = addClass(0, until);
        if (added < 0) {
            long newest = untils[i - 1];
            for (int c = i - 1; c >= 0 && untils[c] == newest; c--) {
                untils[c] = until;
            }
        }
        return added;
    }

    /**
     * Adds a class that is the {@code j}th of its chain (its share of the rate, {@link
     * FingerprintFilterMath#classFor}), in the generation ending at {@code until} if the filter has
     * generations.
     */
    private int addClass(int j, long until) {
        int i = classCount();
        FingerprintClass next =
                i >= MAX_CLASSES
                        ? null
                        : FingerprintFilterMath.classFor(
                                sizing.initialCapacity, sizing.targetFpp, untils == null ? i : j);
        if (next == null) {
            saturated = true;
            return -1;
        }
        if (untils != null) {
            untils = Arrays.copyOf(untils, i + 1);
            untils[i] = until;
        }
        if (i == 0) {
            long[] first = new long[3];
            pack(first, 0, next);
            word0 = first[0];
            capacity0 = first[1];
            count0 = first[2];
        } else {
            classes = Arrays.copyOf(classes, classes.length + 3);
            pack(classes, i - 1, next);
        }
        classCount = (byte) (i + 1);
        return i;
    }

    /** Whether the classes belong to generations ({@code dedup.forget-after}). */
    boolean hasGenerations() {
        return untils != null;
    }

    /** The end of class {@code c}'s generation (epoch milliseconds). */
    long until(int c) {
        return untils[c];
    }

    /** The end of the newest class's generation (epoch milliseconds). */
    long newestUntil() {
        return untils[untils.length - 1];
    }

    /** The ends of the classes' generations, one per class; null without generations. */
    long[] untils() {
        return untils;
    }

    /**
     * Puts every class into one generation that ends at {@code until}, and sizes the classes added
     * from now on for {@code generationFpp}, a generation's share of the rate: a filter written
     * without generations (a new key, a key of a job without {@code forget-after}, a converted
     * exact key) joins them so.
     */
    void startGenerations(long until, double generationFpp) {
        untils = new long[classCount()];
        Arrays.fill(untils, until);
        if (Double.compare(generationFpp, sizing.targetFpp) != 0) {
            sizing = Sizing.of(sizing.initialCapacity, generationFpp, sizing.pageEntries);
        }
    }

    /** Sets the generations' ends as stored; returns this. */
    FilterMeta withUntils(long[] u) {
        if (u != null && u.length != classCount()) {
            throw new IllegalArgumentException(
                    u.length + " generation ends for " + classCount() + " classes");
        }
        this.untils = u;
        return this;
    }

    /**
     * The oldest classes whose generation ended {@code forgetAfter} or longer before {@code t}: the
     * ones to forget at {@code t}. 0 without generations.
     */
    int expiredClasses(long t, long forgetAfter) {
        int k = 0;
        if (untils != null) {
            while (k < untils.length && t - untils[k] >= forgetAfter) {
                k++;
            }
        }
        return k;
    }

    /** Removes the {@code k} oldest classes, fewer than all (see {@link KeyFilter#dropOldest}). */
    void dropOldest(int k) {
        int n = classCount();
        if (k <= 0 || k >= n) {
            throw new IllegalArgumentException("cannot drop " + k + " of " + n + " classes");
        }
        long[] rest = new long[3 * (n - k)];
        for (int c = k; c < n; c++) {
            rest[3 * (c - k)] = word(c);
            rest[3 * (c - k) + 1] = capacity(c);
            rest[3 * (c - k) + 2] = entries(c);
        }
        word0 = rest[0];
        capacity0 = rest[1];
        count0 = rest[2];
        classes = rest.length == 3 ? NO_CLASSES : Arrays.copyOfRange(rest, 3, rest.length);
        classCount = (byte) (n - k);
        untils = Arrays.copyOfRange(untils, k, n);
    }

    /** Classes per key; page ids are {@code class << 24 | page}, so this keeps them positive. */
    public static final int MAX_CLASSES = 120;

    /** A new scalable filter (approximate mode): its first layer at half the target rate. */
    public static FilterMeta create(long initialCapacity, double targetFpp) {
        List<BloomLayer> layers = new ArrayList<>(2);
        layers.add(BloomLayer.sized(initialCapacity, BloomMath.layerFpp(targetFpp, 0)));
        return new FilterMeta(BlockedBloom.STRATEGY, initialCapacity, targetFpp, layers);
    }

    /**
     * A new single-layer filter (exact mode): its one layer meets the target rate on average from
     * half full to full, because it is rebuilt rather than extended when full (see {@link
     * BloomMath}).
     */
    public static FilterMeta createSingle(long initialCapacity, double targetFpp) {
        List<BloomLayer> layers = new ArrayList<>(1);
        layers.add(BloomLayer.sized(initialCapacity, targetFpp, BloomMath.EXACT_FROM_FILL));
        return new FilterMeta(BlockedBloom.STRATEGY, initialCapacity, targetFpp, layers);
    }

    /** Replaces every layer with {@code layer}, which becomes layer 0. */
    void replaceLayers(BloomLayer layer) {
        layers.clear();
        layers.add(layer);
    }

    /** True if the newest layer holds as many items as it was sized for. */
    public boolean isFull() {
        if (isFingerprints()) {
            int last = classCount() - 1;
            return entries(last) >= capacity(last);
        }
        return layers.get(layers.size() - 1).isFull();
    }

    /** Bloom layers or fingerprint classes. */
    public int layerCount() {
        return isFingerprints() ? classCount() : layers.size();
    }

    public BloomLayer layer(int i) {
        return layers.get(i);
    }

    /**
     * Adds the next, larger and tighter layer and returns its index; or, if the filter already has
     * {@link BloomLayer#MAX_LAYERS} layers or the next one would exceed {@link
     * BloomLayer#MAX_PAGES} pages, marks the filter {@link #saturated} and returns -1. A saturated
     * filter keeps filling its newest layer, whose rate then rises above the target: more RocksDB
     * reads in exact mode, more dropped URLs in approximate mode, never an error.
     */
    int grow() {
        int i = layers.size();
        BloomLayer next =
                i >= BloomLayer.MAX_LAYERS
                        ? null
                        : BloomLayer.sizedOrNull(
                                BloomMath.layerCapacity(sizing.initialCapacity, i),
                                BloomMath.layerFpp(sizing.targetFpp, i),
                                1.0);
        if (next == null) {
            saturated = true;
            return -1;
        }
        layers.add(next);
        return i;
    }

    /** Items inserted over all layers. */
    public long count() {
        long n = 0;
        for (BloomLayer l : layers) {
            n += l.count;
        }
        for (int c = 0; c < classCount(); c++) {
            n += entries(c);
        }
        return n;
    }

    /** Copies of the classes. */
    List<FingerprintClass> fingerprintClasses() {
        List<FingerprintClass> all = new ArrayList<>(classCount());
        for (int c = 0; c < classCount(); c++) {
            all.add(fingerprintClass(c));
        }
        return all;
    }

    FilterMeta copy() {
        List<BloomLayer> c = layers.isEmpty() ? List.of() : new ArrayList<>(layers.size());
        for (BloomLayer l : layers) {
            c.add(l.copy());
        }
        FilterMeta m = new FilterMeta(strategy, sizing, c, NO_CLASSES);
        m.word0 = word0;
        m.capacity0 = capacity0;
        m.count0 = count0;
        m.classes = classes.length == 0 ? NO_CLASSES : classes.clone();
        m.classCount = classCount;
        m.untils = untils == null ? null : untils.clone();
        return m.withJournal(journal);
    }

    /**
     * The sizing this filter shares with the keys sized alike, as an opaque token: {@link
     * PackedFilter} keeps an index into a list of them instead of a reference on each packed key.
     */
    Object sizing() {
        return sizing;
    }

    /** Class {@code c}'s word: width, level and split (see {@link FingerprintClass}). */
    long classWord(int c) {
        return word(c);
    }

    /**
     * A filter of strategy 2 or 3 as {@link PackedFilter} stores it: word, capacity and count of
     * each class, in {@code classes}.
     */
    static FilterMeta ofClassWords(byte strategy, Object sizing, long[] classes) {
        return new FilterMeta(strategy, (Sizing) sizing, List.of(), classes);
    }

    /** Sets {@link #journal}; returns this. */
    FilterMeta withJournal(boolean j) {
        this.journal = j;
        return this;
    }

    @Override
    public String toString() {
        return "FilterMeta(strategy="
                + strategy
                + ", "
                + (isFingerprints() ? fingerprintClasses() : layers)
                + (untils == null ? "" : ", until=" + Arrays.toString(untils))
                + ")";
    }

    /**
     * What a filter was sized with, shared by the keys that were sized alike. The page-split
     * threshold (entries per page past which the newest class splits a page) is not stored: the
     * split pages' geometry is, so it only decides future splits, and a restored key takes the
     * job's setting ({@code dedup.exact.page-entries} for exact mode's pages).
     */
    private static final class Sizing {
        /**
         * The sizings in use. A job has one or two, and state written under older settings a few
         * more; past {@link #MAX_INTERNED} a new one is kept unshared rather than held forever.
         */
        private static final ConcurrentHashMap<Sizing, Sizing> INTERNED = new ConcurrentHashMap<>();

        private static final int MAX_INTERNED = 1024;

        final long initialCapacity;
        final double targetFpp;
        final int pageEntries;

        private Sizing(long initialCapacity, double targetFpp, int pageEntries) {
            this.initialCapacity = initialCapacity;
            this.targetFpp = targetFpp;
            this.pageEntries = pageEntries;
        }

        static Sizing of(long initialCapacity, double targetFpp, int pageEntries) {
            Sizing s = new Sizing(initialCapacity, targetFpp, pageEntries);
            Sizing shared = INTERNED.get(s);
            if (shared != null) {
                return shared;
            }
            if (INTERNED.size() >= MAX_INTERNED) {
                return s;
            }
            shared = INTERNED.putIfAbsent(s, s);
            return shared == null ? s : shared;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Sizing z
                    && z.initialCapacity == initialCapacity
                    && Double.compare(z.targetFpp, targetFpp) == 0
                    && z.pageEntries == pageEntries;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(initialCapacity) * 31 * 31
                    + Double.hashCode(targetFpp) * 31
                    + pageEntries;
        }
    }
}
