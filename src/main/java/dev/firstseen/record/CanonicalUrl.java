package dev.firstseen.record;

import dev.firstseen.record.internal.CanonicalUrlTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A URL ready for dedup: the original (what the fetcher gets), its canonical form (the identity),
 * its partition key, pass-through metadata and where it came from. It crosses the shuffle in the
 * compact format of {@link dev.firstseen.record.internal.CanonicalUrlSerializer}, not as a POJO.
 */
@TypeInfo(CanonicalUrlTypeInfo.Factory.class)
public class CanonicalUrl {
    public String url;
    public String canonical;
    public String key;
    public String metaJson;
    public SourcePosition source;

    /** True if the message's metadata was too large for the frontier and left out. */
    public boolean metaOmitted;

    /** What the record asks of the seen-set. For {@link Op#FORGET_KEY} only {@link #key} is set. */
    public Op op = Op.SEEN;

    /** The record's own {@code revisit_after} in millis, overriding the job's; 0 for none. */
    public long revisitAfterMillis;

    /**
     * The salt of a hot key's URL ({@code keying.hot-domains}): dedup state lives under {@code
     * key#salt}; -1 for an unsalted key.
     */
    public int salt = -1;

    public CanonicalUrl() {}

    public CanonicalUrl(
            String url, String canonical, String key, String metaJson, SourcePosition source) {
        this.url = url;
        this.canonical = canonical;
        this.key = key;
        this.metaJson = metaJson;
        this.source = source;
    }

    @Override
    public String toString() {
        return canonical + " [" + key + "]";
    }
}
