package dev.firstseen.record;

/**
 * A first-seen URL on its way to the frontier topic. {@link #url} is the URL as the extractor wrote
 * it (trimmed): that is what the fetcher must request. A Flink POJO.
 */
public class FrontierRecord {
    public String url;
    public String canonical;
    public String key;
    public long firstSeen;
    public String metaJson;
    public SourcePosition source;

    /** True if the input's metadata was larger than {@code frontier.max-meta-size}, left out. */
    public boolean metaOmitted;

    /** True if an {@link Op#FORCE} record emitted it, whatever the seen-set said. */
    public boolean forced;

    /**
     * True if emitted again because {@code dedup.revisit-after} passed since {@link #lastEmitted}.
     */
    public boolean revisit;

    /** For a {@link #revisit}: when the URL was emitted before, epoch millis. */
    public long lastEmitted;

    public FrontierRecord() {}

    public FrontierRecord(
            String url,
            String canonical,
            String key,
            long firstSeen,
            String metaJson,
            SourcePosition source) {
        this.url = url;
        this.canonical = canonical;
        this.key = key;
        this.firstSeen = firstSeen;
        this.metaJson = metaJson;
        this.source = source;
    }

    @Override
    public String toString() {
        return canonical;
    }
}
