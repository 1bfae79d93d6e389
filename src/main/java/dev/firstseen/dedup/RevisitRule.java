package dev.firstseen.dedup;

import java.io.Serializable;

/**
 * When a seen URL is due to be emitted again ({@code dedup.revisit-after}, or a record's own {@code
 * revisit_after}), decided on the input record's Kafka timestamp rather than the wall clock, so
 * that replaying the same input gives the same decisions. Every emission stores that time, with or
 * without a rule, so that a rule given later (or by one record) compares like with like. A
 * timestamp ahead of the processing time is clamped to it: a producer whose clock runs ahead must
 * not pin a URL as "emitted in the future" and so suppress it for longer than the rule says. A
 * record without a timestamp (negative) is decided on the processing time.
 */
record RevisitRule(long afterMillis) implements Serializable {
    RevisitRule {
        if (afterMillis <= 0) {
            throw new IllegalArgumentException("revisit-after must be > 0, was " + afterMillis);
        }
    }

    /** The time a record is decided at, and stored as its last emission if it is emitted. */
    static long decisionTime(long recordTimestamp, long processingTime) {
        return recordTimestamp < 0 ? processingTime : Math.min(recordTimestamp, processingTime);
    }

    /** True if a URL last emitted at {@code lastEmitted} is due again at {@code t}. */
    boolean due(long lastEmitted, long t) {
        return t - lastEmitted >= afterMillis;
    }
}
