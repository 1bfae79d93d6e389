package dev.firstseen.ingest;

/**
 * A decoded input message: the URL as the extractor wrote it (trimmed), the other fields of a JSON
 * message as a JSON object text (null for a bare URL), and its source position. A Flink POJO.
 */
public class UrlMessage {
    public String url;
    public String metaJson;
    public String topic;
    public int partition;
    public long offset;

    public UrlMessage() {}

    public UrlMessage(String url, String metaJson, String topic, int partition, long offset) {
        this.url = url;
        this.metaJson = metaJson;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
    }
}
