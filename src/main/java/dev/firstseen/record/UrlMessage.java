package dev.firstseen.record;

/**
 * A decoded input message: the URL as the extractor wrote it (trimmed), the other fields of a JSON
 * message as a JSON object text (null for a bare URL), and where it came from (so a later dead
 * letter still names it). A Flink POJO.
 */
public class UrlMessage {
    public String url;
    public String metaJson;
    public SourcePosition source;

    /** True if the message had metadata larger than the frontier carries, left out. */
    public boolean metaOmitted;

    /** What the record asks of the seen-set; {@link Op#SEEN} unless its JSON said otherwise. */
    public Op op = Op.SEEN;

    /** For {@link Op#FORGET_KEY}: the partition key to forget ({@link #url} is then null). */
    public String opKey;

    /** The record's own {@code revisit_after} in millis, overriding the job's; 0 for none. */
    public long revisitAfterMillis;

    public UrlMessage() {}

    public UrlMessage(String url, String metaJson, SourcePosition source) {
        this.url = url;
        this.metaJson = metaJson;
        this.source = source;
    }
}
