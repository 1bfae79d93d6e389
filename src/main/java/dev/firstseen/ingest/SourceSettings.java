package dev.firstseen.ingest;

import java.util.List;
import java.util.Properties;

/**
 * What the Kafka source needs, taken from the job's options by {@code FirstSeenSettings}.
 *
 * @param kafkaProperties extra Kafka client properties ({@code kafka.properties.*})
 */
public record SourceSettings(
        String bootstrapServers,
        List<String> topics,
        String groupId,
        StartingOffsets startingOffsets,
        boolean bounded,
        Properties kafkaProperties) {}
