package dev.firstseen.tools;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Prints the committed values of a topic, one per line, from the beginning, and exits when it has
 * read up to the end that was current at its start (read_committed, see {@link TopicReader}).
 */
public final class Dump {
    private Dump() {}

    static final String USAGE =
            "Usage: Dump --bootstrap HOST:PORT --topic TOPIC [--limit N] [--count]";

    public static void main(String[] argv) {
        ToolArgs args = new ToolArgs(argv, USAGE);
        String topic = args.required("topic");
        long limit = args.getLong("limit", Long.MAX_VALUE);
        boolean countOnly = args.has("count");
        long[] n = new long[1];
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (TopicReader reader = new TopicReader(args.required("bootstrap"), topic)) {
            reader.drainWhile(
                    r -> {
                        if (n[0] >= limit) {
                            return false;
                        }
                        n[0]++;
                        if (!countOnly) {
                            out.println(
                                    r.value() == null
                                            ? "null"
                                            : new String(r.value(), StandardCharsets.UTF_8));
                        }
                        return true;
                    });
        }
        if (countOnly) {
            out.println(n[0]);
        }
        out.flush();
    }
}
