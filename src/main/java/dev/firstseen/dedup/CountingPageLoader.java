package dev.firstseen.dedup;

import org.apache.flink.api.common.state.MapState;

/**
 * Loads pages from the "bloom-pages" keyed state and counts the reads, and among them the
 * fingerprint pages of the layout before the thirty-eighth session.
 */
final class CountingPageLoader implements PageSource {
    private final MapState<Integer, byte[]> pages;
    private long loads;
    private long formerLayout;

    CountingPageLoader(MapState<Integer, byte[]> pages) {
        this.pages = pages;
    }

    @Override
    public byte[] load(int pageId) throws Exception {
        loads++;
        return pages.get(pageId);
    }

    @Override
    public void formerLayoutRead() {
        formerLayout++;
    }

    /** Pages read so far that had the layout before the thirty-eighth session. */
    long formerLayoutReads() {
        return formerLayout;
    }

    /** State reads so far. */
    long loads() {
        return loads;
    }
}
