package dev.firstseen.record;

/**
 * Why a record went to the dead-letter topic. The {@link #code()} is the stable string written to
 * the {@code reason} field and used as the metric label; codes are never renamed.
 */
public enum DeadLetterReason {
    /** The record value is null (a tombstone), empty, or only white space. */
    EMPTY("empty"),
    /** The value is longer than {@code canonical.max-url-length} bytes. */
    TOO_LONG("too-long"),
    /** The value is not valid UTF-8. */
    INVALID_UTF8("invalid-utf8"),
    /** The value starts with '{' but is not a JSON object. */
    BAD_JSON("bad-json"),
    /** A JSON object without a non-empty string field {@code url}. */
    MISSING_URL("missing-url"),
    /** No scheme: a relative reference or a bare host name. */
    MISSING_SCHEME("missing-scheme"),
    /** A scheme that is not in {@code canonical.schemes}. */
    UNSUPPORTED_SCHEME("unsupported-scheme"),
    /** Empty host, forbidden host characters, bad IP literal or failed IDNA conversion. */
    BAD_HOST("bad-host"),
    /** Host longer than 253 characters or a label longer than 63, after IDNA. */
    HOST_TOO_LONG("host-too-long"),
    /** Port that is not a number from 0 to 65535. */
    BAD_PORT("bad-port"),
    /**
     * A JSON record's {@code "op"} is not one of the ops, {@code forget-key} has no usable {@code
     * "key"}, its {@code revisit_after} is not a positive duration, or the op (or a revisit_after)
     * needs exact mode and the job runs approximate mode.
     */
    BAD_OP("bad-op"),
    /** The canonical form is longer than {@code canonical.max-url-length}. */
    CANONICAL_TOO_LONG("canonical-too-long"),
    /**
     * A stage threw on this record: the detail names the exception. Never expected; the record is
     * kept here instead of failing the job, and is worth a bug report.
     */
    UNPROCESSABLE("unprocessable");

    private final String code;

    DeadLetterReason(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
