package dev.firstseen.dedup;

/**
 * The most bytes a part of the filter cache held at once since the last reset. The part notes its
 * bytes at the moments they may be at their most: when it has allocated a chunk or an array and
 * still holds what that replaces. Readers give the bytes the part holds now.
 *
 * <p>Not thread-safe: its cache's task thread uses it.
 */
final class HeapPeak {
    private long most;

    /** {@code bytes} were held at once. */
    void note(long bytes) {
        if (bytes > most) {
            most = bytes;
        }
    }

    /** The most since the last reset, {@code now} (the bytes held now) included. */
    long most(long now) {
        return Math.max(most, now);
    }

    /** Starts again from {@code now}. */
    void reset(long now) {
        most = now;
    }

    /** {@link #most}, then {@link #reset}. */
    long take(long now) {
        long p = Math.max(most, now);
        most = now;
        return p;
    }
}
