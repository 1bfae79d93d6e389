package dev.firstseen.dedup;

/** Reads one Bloom page of the current key from keyed state; null if it was never written. */
public interface PageSource {
    byte[] load(int pageId) throws Exception;

    /**
     * Called by a filter when a fingerprint page it loaded from this source had the layout written
     * before the thirty-eighth session (and was turned around as it loaded, {@link
     * FingerprintPage#fromStored}): lets a job count how much of its state is still in that layout.
     */
    default void formerLayoutRead() {}

    /** A source with nothing in it: every page reads as absent (a filter being rebuilt). */
    PageSource NOTHING_STORED = id -> null;
}
