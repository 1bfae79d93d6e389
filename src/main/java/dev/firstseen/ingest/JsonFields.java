package dev.firstseen.ingest;

/**
 * What {@link MessageDecoder} takes from a JSON input object, filled either by {@link FlatJson} or
 * by the Jackson reader, and then judged the same way whichever filled it.
 */
final class JsonFields {
    /** The string value of {@code url}, if it had one. */
    String url;

    /** {@code url} was present but not a string. */
    boolean urlNotText;

    /** The string value of {@code op}, if it had one. */
    String opText;

    /** {@code op} was present but not a string. */
    boolean opNotText;

    /** {@code revisit_after} in millis: 0 if absent, less than 0 if not a positive duration. */
    long revisitAfter;

    /** The text of an invalid {@code revisit_after}, for the dead letter's detail. */
    String badRevisit;

    /** The string value of {@code key}, if it had one (the key of a forget-key op). */
    String key;

    /**
     * Every other field as the input wrote it, one after another, while they follow each other in
     * the input separated by one comma: the text they were read from and their range in it.
     */
    private String metaText;

    private int metaFrom;
    private int metaTo;

    /** Every other field, comma-separated, once they no longer follow each other in the input. */
    private StringBuilder meta;

    /** {@link FlatJson}'s scratch: where each field's name starts. */
    final int[] nameStarts = new int[FlatJson.MAX_FIELDS];

    /** Clears every field, for the next object. */
    JsonFields reset() {
        url = null;
        urlNotText = false;
        opText = null;
        opNotText = false;
        revisitAfter = 0;
        badRevisit = null;
        key = null;
        metaText = null;
        meta = null;
        return this;
    }

    /**
     * Adds {@code "name":value} to the metadata: the input's text from {@code from} to {@code to}.
     */
    void appendMeta(String text, int from, int to) {
        if (meta == null) {
            if (metaText == null) {
                metaText = text;
                metaFrom = from;
                metaTo = to;
                return;
            }
            // One character between two fields can only be the comma.
            if (from == metaTo + 1) {
                metaTo = to;
                return;
            }
            meta = new StringBuilder(metaTo - metaFrom + to - from + 3).append('{');
            meta.append(metaText, metaFrom, metaTo);
            metaText = null;
        }
        meta.append(',').append(text, from, to);
    }

    /**
     * The metadata as one JSON object, {@code {"name":value,…}}; null if there is none. Once per
     * object: it closes the object.
     */
    String metaJson() {
        if (meta != null) {
            return meta.append('}').toString();
        }
        return metaText == null ? null : "{" + metaText.substring(metaFrom, metaTo) + "}";
    }
}
