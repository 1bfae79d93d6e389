package dev.firstseen.ingest;

/** Where the job starts reading input partitions when it has no checkpoint or savepoint. */
public enum StartingOffsets {
    /** The consumer group's committed offsets; the earliest offset where there is none. */
    COMMITTED,
    /** The earliest offset still in the topic. */
    EARLIEST,
    /** The end of each partition: only URLs produced after the start. */
    LATEST
}
