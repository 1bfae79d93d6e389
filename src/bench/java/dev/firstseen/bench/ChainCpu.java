package dev.firstseen.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * CPU time of a job's task threads by operator chain: the source chain (decode, canonicalize) and
 * the keyed chain after the shuffle (the dedup operator and its sink in the FirstSeen jobs). The
 * source chain does the same work in every job of a run, so the keyed chain's CPU over the source
 * chain's compares two jobs with the machine's speed at the time of each divided out: on this
 * machine a job's CPU per record moves by 10–40% with its position in an invocation, which hides
 * differences of a few percent between jobs.
 *
 * <p>A daemon thread reads every thread's CPU time every {@link #PERIOD_MILLIS} while the job runs
 * and keeps the last value of each, since a task thread's time can no longer be read once it has
 * ended: what a thread used in its last period is lost, at the job's end, when its tasks are idle
 * but for the final checkpoint. Threads alive before {@link #start()} are not the job's.
 */
final class ChainCpu implements AutoCloseable {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long PERIOD_MILLIS = 20;

    /** A Flink task thread: "name (subtask/parallelism)#attempt". */
    private static final Pattern TASK = Pattern.compile(" \\(\\d+/\\d+\\)#\\d+$");

    private final Set<Long> before = new HashSet<>();
    private final Map<Long, String> names = new HashMap<>();
    private final Map<Long, Long> cpu = new HashMap<>();
    private final Thread sampler;
    private volatile boolean running = true;

    private ChainCpu() {
        for (long id : THREADS.getAllThreadIds()) {
            before.add(id);
        }
        sampler = new Thread(this::run, "chain-cpu-sampler");
        sampler.setDaemon(true);
    }

    /** Starts sampling; call before the job is submitted. */
    static ChainCpu start() {
        ChainCpu c = new ChainCpu();
        c.sampler.start();
        return c;
    }

    private void run() {
        while (running) {
            sample();
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void sample() {
        long[] ids = THREADS.getAllThreadIds();
        for (long id : ids) {
            if (before.contains(id)) {
                continue;
            }
            long t = THREADS.getThreadCpuTime(id);
            if (t < 0) {
                continue; // ended since the list was taken
            }
            if (!names.containsKey(id)) {
                ThreadInfo info = THREADS.getThreadInfo(id);
                if (info == null) {
                    continue;
                }
                names.put(id, info.getThreadName());
            }
            cpu.merge(id, t, Math::max);
        }
    }

    /** Stops sampling after one last reading; call after the job finished. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.interrupt();
        sampler.join();
        sample();
    }

    /** CPU nanoseconds of the task threads whose chain name starts with "Source: ". */
    long sourceChainNanos() {
        return nanosOf(name -> name.startsWith("Source: "));
    }

    /**
     * CPU nanoseconds of the other task threads, but for the dead-letter sink's: the chain after
     * the shuffle.
     */
    long keyedChainNanos() {
        return nanosOf(name -> !name.startsWith("Source") && !name.startsWith("dead-letters"));
    }

    /** CPU nanoseconds of the task threads whose name {@code chain} accepts. */
    private synchronized long nanosOf(Predicate<String> chain) {
        long n = 0;
        for (Map.Entry<Long, Long> e : cpu.entrySet()) {
            String name = names.get(e.getKey());
            if (isTask(name) && chain.test(name)) {
                n += e.getValue();
            }
        }
        return n;
    }

    static boolean isTask(String threadName) {
        return threadName != null && TASK.matcher(threadName).find();
    }
}
