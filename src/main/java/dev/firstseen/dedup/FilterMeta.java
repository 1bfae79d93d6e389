package dev.firstseen.dedup;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-key description of a filter: the strategy, the sizing it was created with, and its layers:
 * {@link BlockedBloom} layers (strategy 1, see {@link BloomMath} for the growth rule) or {@link
 * FingerprintClass}es (strategy 2, see {@link FingerprintFilterMath}). Stored in keyed state with
 * {@link FilterMetaSerializer}.
 */
public final class FilterMeta {
    /** Strategy of the compressed-fingerprint filter. */
    public static final byte FINGERPRINTS = 2;

    public final byte strategy;
    public final long initialCapacity;
    public final double targetFpp;
    final List<BloomLayer> layers;
    final List<FingerprintClass> classes;

    /**
     * Set when the filter could not grow (see {@link #grow()}); not stored, so a restored filter
     * tries once more.
     */
    boolean saturated;

    FilterMeta(byte strategy, long initialCapacity, double targetFpp, List<BloomLayer> layers) {
        this(strategy, initialCapacity, targetFpp, layers, List.of());
    }

    private FilterMeta(
            byte strategy,
            long initialCapacity,
            double targetFpp,
            List<BloomLayer> layers,
            List<FingerprintClass> classes) {
        this.strategy = strategy;
        this.initialCapacity = initialCapacity;
        this.targetFpp = targetFpp;
        this.layers = layers;
        this.classes = classes;
    }

    /** A stored compressed-fingerprint filter. */
    static FilterMeta ofClasses(
            long initialCapacity, double targetFpp, List<FingerprintClass> classes) {
        return new FilterMeta(
                FINGERPRINTS, initialCapacity, targetFpp, new ArrayList<>(0), classes);
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
        List<FingerprintClass> classes = new ArrayList<>(2);
        classes.add(first);
        return ofClasses(initialCapacity, targetFpp, classes);
    }

    public boolean isFingerprints() {
        return strategy == FINGERPRINTS;
    }

    public FingerprintClass fingerprintClass(int i) {
        return classes.get(i);
    }

    /**
     * Adds the next class and returns its index; or, if its prefixes would be too wide, marks the
     * filter {@link #saturated} and returns -1 (the newest class keeps filling past its capacity).
     */
    int growClass() {
        int i = classes.size();
        FingerprintClass next =
                i >= MAX_CLASSES
                        ? null
                        : FingerprintFilterMath.classFor(initialCapacity, targetFpp, i);
        if (next == null) {
            saturated = true;
            return -1;
        }
        classes.add(next);
        return i;
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
        return isFingerprints()
                ? classes.get(classes.size() - 1).isFull()
                : layers.get(layers.size() - 1).isFull();
    }

    /** Bloom layers or fingerprint classes. */
    public int layerCount() {
        return isFingerprints() ? classes.size() : layers.size();
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
                                BloomMath.layerCapacity(initialCapacity, i),
                                BloomMath.layerFpp(targetFpp, i),
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
        for (FingerprintClass c : classes) {
            n += c.count;
        }
        return n;
    }

    FilterMeta copy() {
        List<BloomLayer> c = layers.isEmpty() ? List.of() : new ArrayList<>(layers.size());
        for (BloomLayer l : layers) {
            c.add(l.copy());
        }
        List<FingerprintClass> k = classes.isEmpty() ? List.of() : new ArrayList<>(classes.size());
        for (FingerprintClass f : classes) {
            k.add(f.copy());
        }
        return new FilterMeta(strategy, initialCapacity, targetFpp, c, k);
    }

    @Override
    public String toString() {
        return "FilterMeta(strategy="
                + strategy
                + ", "
                + (isFingerprints() ? classes : layers)
                + ")";
    }
}
