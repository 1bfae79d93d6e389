package dev.firstseen.emit;

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
    public String topic;
    public int partition;
    public long offset;

    public FrontierRecord() {}

    public FrontierRecord(
            String url,
            String canonical,
            String key,
            long firstSeen,
            String metaJson,
            String topic,
            int partition,
            long offset) {
        this.url = url;
        this.canonical = canonical;
        this.key = key;
        this.firstSeen = firstSeen;
        this.metaJson = metaJson;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
    }

    @Override
    public String toString() {
        return canonical;
    }
}
