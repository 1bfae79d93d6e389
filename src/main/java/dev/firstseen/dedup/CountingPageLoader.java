package dev.firstseen.dedup;

import org.apache.flink.api.common.state.MapState;

/** Loads pages from the "bloom-pages" keyed state and counts the reads. */
final class CountingPageLoader implements PageSource {
    private final MapState<Integer, byte[]> pages;
    private long loads;

    CountingPageLoader(MapState<Integer, byte[]> pages) {
        this.pages = pages;
    }

    @Override
    public byte[] load(int pageId) throws Exception {
        loads++;
        return pages.get(pageId);
    }

    /** State reads so far. */
    long loads() {
        return loads;
    }
}
