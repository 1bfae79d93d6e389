package dev.firstseen.dedup;

import java.util.Locale;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;

/**
 * The heap one dedup subtask's filter cache may hold: {@code dedup.bloom.cache-size} if the job
 * sets it, else {@code dedup.bloom.cache-heap-fraction} of its slot's share of the TaskManager's
 * task heap. A share follows the heap the operator gives the TaskManagers, so raising {@code
 * taskmanager.memory.task.heap.size} is enough to hold more keys; a fixed size left at its old
 * default (64 MB) held a third of the pages of a 50 M-URL run on a 4 GB heap and cost three
 * quarters of the rate (docs/design/state.md, Exact mode's fingerprint pages).
 *
 * @param bytes the budget, at least {@link #MIN_BYTES}
 * @param origin where it comes from, for the log
 * @param slotHeap the slot's share of the task heap (or of the JVM's heap, as above), which the
 *     subtask's other transient work is sized by as well
 */
record FilterCacheBudget(long bytes, String origin, long slotHeap) {
    /** The smallest budget: what {@code dedup.bloom.cache-size} accepts at least. */
    static final long MIN_BYTES = 1L << 20;

    /**
     * Resolves the budget.
     *
     * @param fixedBytes {@code dedup.bloom.cache-size} in bytes, or 0 if the job does not set it
     * @param heapFraction {@code dedup.bloom.cache-heap-fraction}, in (0, 1)
     * @param taskManager the configuration of the TaskManager the subtask runs in: its slots, and
     *     its task heap where Flink's memory model set one (a standalone or YARN/Kubernetes
     *     TaskManager; a local MiniCluster leaves it unbounded)
     * @param maxHeap the JVM's heap ({@link Runtime#maxMemory()}), which stands in for the task
     *     heap where that is unbounded or larger
     */
    static FilterCacheBudget resolve(
            long fixedBytes, double heapFraction, Configuration taskManager, long maxHeap) {
        int slots = Math.max(1, taskManager.get(TaskManagerOptions.NUM_TASK_SLOTS));
        long taskHeap =
                taskManager
                        .getOptional(TaskManagerOptions.TASK_HEAP_MEMORY)
                        .map(MemorySize::getBytes)
                        .filter(b -> b > 0 && b < maxHeap)
                        .orElse(maxHeap);
        boolean fromTaskHeap = taskHeap < maxHeap;
        long slotHeap = taskHeap / slots;
        if (fixedBytes > 0) {
            return new FilterCacheBudget(fixedBytes, "dedup.bloom.cache-size", slotHeap);
        }
        long bytes = Math.max(MIN_BYTES, (long) (heapFraction * slotHeap));
        return new FilterCacheBudget(
                bytes,
                String.format(
                        Locale.ROOT,
                        "dedup.bloom.cache-heap-fraction %s of %s, %d mb, over %d slots",
                        heapFraction,
                        fromTaskHeap ? "the task heap" : "the JVM heap",
                        taskHeap >> 20,
                        slots),
                slotHeap);
    }
}
