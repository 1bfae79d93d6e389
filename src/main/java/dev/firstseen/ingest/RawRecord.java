package dev.firstseen.ingest;

/**
 * One input record as it came from Kafka: the value bytes untouched (they may be anything) and
 * where they came from. A Flink POJO.
 */
public class RawRecord {
    public byte[] value;
    public String topic;
    public int partition;
    public long offset;
    public long timestamp;

    public RawRecord() {}

    public RawRecord(byte[] value, String topic, int partition, long offset, long timestamp) {
        this.value = value;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.timestamp = timestamp;
    }
}
