package dev.firstseen.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time a job spent in this JVM, which also runs the broker and the MiniCluster: the process's
 * CPU time over the job minus what the threads that lived through the whole job used (the broker's
 * request handlers and log cleaner, the MiniCluster's RPC and heartbeat threads, the harness). What
 * is left is the job's threads, which start after submission and end before the job does: sources,
 * operators, sinks, their Kafka clients and RocksDB's background threads.
 */
final class JobCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long process;
    private final Map<Long, Long> threads;

    private JobCpu(long process, Map<Long, Long> threads) {
        this.process = process;
        this.threads = threads;
    }

    static JobCpu now() {
        Map<Long, Long> t = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            long cpu = THREADS.getThreadCpuTime(id);
            if (cpu >= 0) {
                t.put(id, cpu);
            }
        }
        return new JobCpu(processCpu(), t);
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
