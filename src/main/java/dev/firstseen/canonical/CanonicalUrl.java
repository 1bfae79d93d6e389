package dev.firstseen.canonical;

/**
 * A URL ready for dedup: the original (what the fetcher gets), its canonical form (the identity),
 * its partition key, pass-through metadata and source position. A Flink POJO.
 */
public class CanonicalUrl {
    public String url;
    public String canonical;
    public String key;
    public String metaJson;
    public String topic;
    public int partition;
    public long offset;

    public CanonicalUrl() {}

    public CanonicalUrl(
            String url,
            String canonical,
            String key,
            String metaJson,
            String topic,
            int partition,
            long offset) {
        this.url = url;
        this.canonical = canonical;
        this.key = key;
        this.metaJson = metaJson;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
    }

    @Override
    public String toString() {
        return canonical + " [" + key + "]";
    }
}
