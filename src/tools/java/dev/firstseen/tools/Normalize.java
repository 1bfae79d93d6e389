package dev.firstseen.tools;

import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.config.FirstSeenOptions;
import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.ingest.MessageDecoder;
import dev.firstseen.job.FirstSeenJob;
import dev.firstseen.keying.PartitionKeyer;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.configuration.Configuration;

/**
 * Shows what the job does with each input line: reads lines on standard input and writes, per line
 * and in order, {@code canonical<TAB>key} or {@code INVALID<TAB>reason}. Each line goes through the
 * job's own decoder (so JSON lines and invalid UTF-8 are handled as in the job), canonicalizer and
 * keyer, configured by the same {@code --key value} options.
 */
public final class Normalize {
    private Normalize() {}

    public static void main(String[] args) throws IOException {
        Configuration conf = FirstSeenJob.parseArgs(args);
        if (!conf.contains(FirstSeenOptions.BOOTSTRAP_SERVERS)) {
            // Not used here; set so that the job's validation of everything else runs.
            conf.set(FirstSeenOptions.BOOTSTRAP_SERVERS, "unused:0");
        }
        FirstSeenSettings settings = ToolArgs.settingsOrExit(conf);
        PrintStream out =
                new PrintStream(
                        new BufferedOutputStream(System.out, 1 << 16),
                        false,
                        StandardCharsets.UTF_8);
        run(new BufferedInputStream(System.in, 1 << 16), out, settings);
        out.flush();
    }

    /** Normalizes every line of {@code in} to {@code out}. */
    static void run(InputStream in, PrintStream out, FirstSeenSettings s) throws IOException {
        MessageDecoder decoder = s.messageDecoder();
        Canonicalizer canon = s.canonicalizer();
        PartitionKeyer keyer = new PartitionKeyer(s.keyMode());
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        int b;
        boolean pending = false;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                write(line.toByteArray(), decoder, canon, keyer, out);
                line.reset();
                pending = false;
            } else {
                line.write(b);
                pending = true;
            }
        }
        if (pending) {
            write(line.toByteArray(), decoder, canon, keyer, out);
        }
    }

    private static void write(
            byte[] raw,
            MessageDecoder decoder,
            Canonicalizer canon,
            PartitionKeyer keyer,
            OutputStream sink) {
        PrintStream out = (PrintStream) sink;
        if (raw.length > 0 && raw[raw.length - 1] == '\r') {
            raw = Arrays.copyOf(raw, raw.length - 1);
        }
        MessageDecoder.Decoded d = decoder.decode(raw);
        if (d.reason != null) {
            out.append("INVALID\t").append(d.reason.code()).append('\n');
            return;
        }
        Canonicalization c = canon.canonicalize(d.url);
        if (!c.isAccepted()) {
            out.append("INVALID\t").append(c.reason().code()).append('\n');
            return;
        }
        out.append(c.url()).append('\t').append(keyer.keyOf(c)).append('\n');
    }
}
