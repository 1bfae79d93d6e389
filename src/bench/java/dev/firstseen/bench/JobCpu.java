package dev.firstseen.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time a job spent in this JVM, which also runs the broker and the MiniCluster: the process's
 * CPU time over the job minus what the threads that lived through the whole job used (the broker's
 * request handlers and log cleaner, the MiniCluster's RPC and heartbeat threads, the harness). What
 * is left is the job's threads, which start after submission and end before the job does: sources,
 * operators, sinks, their Kafka clients and RocksDB's background threads.
 *
 * <p>The JVM's compiler and garbage-collector threads are hidden from {@link ThreadMXBean}, so
 * their CPU counts as the job's too. Both are also read apart, from the kernel's per-thread times
 * in {@code /proc/self/task} (10 ms ticks on Linux; zero elsewhere), so that a report can say how
 * much of a job's figure was the JIT compiling or the collector collecting for the whole JVM. A
 * hidden thread that ends between two readings drops out of both sums; on two cores HotSpot keeps
 * one compiler thread of each kind for the JVM's life.
 */
final class JobCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Linux's USER_HZ, the unit of the times in /proc/[pid]/task/[tid]/stat. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private final long process;
    private final Map<Long, Long> threads;
    private final long jitTicks;
    private final long gcTicks;

    private JobCpu(long process, Map<Long, Long> threads, long jitTicks, long gcTicks) {
        this.process = process;
        this.threads = threads;
        this.jitTicks = jitTicks;
        this.gcTicks = gcTicks;
    }

    static JobCpu now() {
        Map<Long, Long> t = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            long cpu = THREADS.getThreadCpuTime(id);
            if (cpu >= 0) {
                t.put(id, cpu);
            }
        }
        long[] hidden = hiddenThreadTicks();
        return new JobCpu(processCpu(), t, hidden[0], hidden[1]);
    }

    /** Of {@link #jobNanosUntil}, what the JIT compiler threads used (10 ms resolution). */
    long jitNanosUntil(JobCpu end) {
        return (end.jitTicks - jitTicks) * NANOS_PER_TICK;
    }

    /** Of {@link #jobNanosUntil}, what the garbage collector's threads used (10 ms resolution). */
    long gcNanosUntil(JobCpu end) {
        return (end.gcTicks - gcTicks) * NANOS_PER_TICK;
    }

    /**
     * {JIT compiler threads' ticks, GC threads' ticks} of this process: HotSpot names them "C1
     * CompilerThread…"/"C2 CompilerThread…" and "GC Thread#…", "G1 …" or "VM Thread" (which runs
     * the collections of the parallel collector's safepoints).
     */
    private static long[] hiddenThreadTicks() {
        long[] ticks = new long[2];
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended
                }
                int kind = kindOf(stat);
                if (kind >= 0) {
                    ticks[kind] += ticksOf(stat);
                }
            }
        } catch (IOException | RuntimeException e) {
            return new long[2]; // no /proc: report nothing rather than fail the benchmark
        }
        return ticks;
    }

    /** 0 for a JIT compiler thread's stat line, 1 for a GC thread's, -1 for any other. */
    static int kindOf(String stat) {
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (name.contains("CompilerThre")) {
            return 0;
        }
        return name.startsWith("GC Thread") || name.startsWith("G1 ") || name.equals("VM Thread")
                ? 1
                : -1;
    }

    /** User plus system ticks of a stat line: fields 14 and 15, counted after the name. */
    static long ticksOf(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** Nanoseconds of CPU the whole process used between {@code this} and {@code end}. */
    long processNanosUntil(JobCpu end) {
        return end.process - process;
    }

    /** Nanoseconds of CPU the job's own threads used between {@code this} and {@code end}. */
    long jobNanosUntil(JobCpu end) {
        long longLived = 0;
        for (Map.Entry<Long, Long> e : end.threads.entrySet()) {
            Long before = threads.get(e.getKey());
            if (before != null) {
                longLived += e.getValue() - before;
            }
        }
        return end.process - process - longLived;
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
