package dev.firstseen.record;

import java.util.Objects;

/**
 * Where an input record came from: its Kafka topic, partition and offset, and its Kafka timestamp
 * (epoch milliseconds; -1 if the record had none). Every record type carries one, so a frontier
 * record or a dead letter can always be traced back to its input. Immutable; a Flink POJO only so
 * that the chained stages can hand it on without a custom serializer.
 */
public final class SourcePosition {
    public String topic;
    public int partition;
    public long offset;
    public long timestamp;

    public SourcePosition() {}

    public SourcePosition(String topic, int partition, long offset, long timestamp) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.timestamp = timestamp;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SourcePosition p
                && p.partition == partition
                && p.offset == offset
                && p.timestamp == timestamp
                && Objects.equals(p.topic, topic);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset);
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset;
    }
}
