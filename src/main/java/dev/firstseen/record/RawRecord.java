package dev.firstseen.record;

/**
 * One input record as it came from Kafka: the value bytes untouched (they may be anything) and
 * where they came from. A Flink POJO.
 */
public class RawRecord {
    public byte[] value;
    public SourcePosition source;

    public RawRecord() {}

    public RawRecord(byte[] value, SourcePosition source) {
        this.value = value;
        this.source = source;
    }
}
