package dev.firstseen.ingest;

/**
 * A decoded input message: the URL as the extractor wrote it (trimmed), the other fields of a JSON
 * message as a JSON object text (null for a bare URL), and its source position and Kafka timestamp
 * (so a later dead letter still names them). A Flink POJO.
 */
public class UrlMessage {
    public String url;
    public String metaJson;
    public String topic;
    public int partition;
    public long offset;
    public long timestamp;

    public UrlMessage() {}

    public UrlMessage(
            String url, String metaJson, String topic, int partition, long offset, long timestamp) {
        this.url = url;
        this.metaJson = metaJson;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.timestamp = timestamp;
    }
}
