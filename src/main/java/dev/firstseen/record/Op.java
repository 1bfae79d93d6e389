package dev.firstseen.record;

/**
 * What an input record asks of the seen-set. A bare URL, or a JSON record without {@code "op"}, is
 * {@link #SEEN}. The {@link #code()} is what the JSON field {@code "op"} holds; codes are never
 * renamed.
 */
public enum Op {
    /** Dedup as usual: emit if first seen. */
    SEEN("seen"),
    /** Record as seen now and emit, whatever the state says; the frontier record says "forced". */
    FORCE("force"),
    /** Record as seen without emitting (import from an earlier crawl); an existing time is kept. */
    MARK_SEEN("mark-seen"),
    /**
     * Remove the URL from the seen-set: its next sighting is new. Not with approximate mode's Bloom
     * filter, which cannot delete one URL.
     */
    FORGET("forget"),
    /** Remove every URL of the partition key given in {@code "key"}. */
    FORGET_KEY("forget-key");

    private final String code;

    Op(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** The op whose code is {@code code}, or null. */
    public static Op of(String code) {
        for (Op op : values()) {
            if (op.code.equals(code)) {
                return op;
            }
        }
        return null;
    }

    /** True for the ops that delete, which a Bloom filter alone cannot honour. */
    public boolean deletes() {
        return this == FORGET || this == FORGET_KEY;
    }
}
