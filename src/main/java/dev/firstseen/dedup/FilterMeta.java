package dev.firstseen.dedup;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-key description of a scalable Bloom filter: the strategy, the sizing it was created with, and
 * its layers (see {@link BloomMath} for the growth rule). Stored in keyed state with {@link
 * FilterMetaSerializer}.
 */
public final class FilterMeta {
    public final byte strategy;
    public final long initialCapacity;
    public final double targetFpp;
    final List<BloomLayer> layers;

    /**
     * Set when the filter could not grow (see {@link #grow()}); not stored, so a restored filter
     * tries once more.
     */
    boolean saturated;

    FilterMeta(byte strategy, long initialCapacity, double targetFpp, List<BloomLayer> layers) {
        this.strategy = strategy;
        this.initialCapacity = initialCapacity;
        this.targetFpp = targetFpp;
        this.layers = layers;
    }

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
        return layers.get(layers.size() - 1).isFull();
    }

    public int layerCount() {
        return layers.size();
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
        return n;
    }

    FilterMeta copy() {
        List<BloomLayer> c = new ArrayList<>(layers.size());
        for (BloomLayer l : layers) {
            c.add(l.copy());
        }
        return new FilterMeta(strategy, initialCapacity, targetFpp, c);
    }

    @Override
    public String toString() {
        return "FilterMeta(strategy=" + strategy + ", " + layers + ")";
    }
}
