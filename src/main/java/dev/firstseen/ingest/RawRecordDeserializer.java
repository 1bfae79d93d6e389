package dev.firstseen.ingest;

import dev.firstseen.record.RawRecord;
import dev.firstseen.record.SourcePosition;
import java.io.IOException;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Wraps each Kafka record as a {@link RawRecord} without interpreting it. Decoding happens in
 * {@link DecodeFunction}, where a bad value becomes a dead letter: a deserializer that throws would
 * fail the job on every restart, stalling the whole crawl on one record.
 */
public final class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out)
            throws IOException {
        out.collect(
                new RawRecord(
                        record.value(),
                        new SourcePosition(
                                record.topic(),
                                record.partition(),
                                record.offset(),
                                record.timestamp())));
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }
}
