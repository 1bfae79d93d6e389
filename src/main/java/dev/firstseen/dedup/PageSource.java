package dev.firstseen.dedup;

/** Reads one Bloom page of the current key from keyed state; null if it was never written. */
public interface PageSource {
    byte[] load(int pageId) throws Exception;

    /** A source with nothing in it: every page reads as absent (a filter being rebuilt). */
    PageSource NOTHING_STORED = id -> null;
}
