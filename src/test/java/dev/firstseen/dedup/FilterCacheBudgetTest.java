package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The filter cache's budget: a set {@code dedup.bloom.cache-size} wins; otherwise the fraction of
 * the slot's share of the task heap, the JVM's heap standing in where the task heap is unbounded (a
 * local MiniCluster) or larger than the JVM's. The slot's share of the heap, which also bounds what
 * a key's conversion from exact mode builds at once ({@link KeyFilter#buildLimit}), follows the
 * same rule whatever the budget.
 */
class FilterCacheBudgetTest {
    private static final long MB = 1L << 20;

    @ParameterizedTest(name = "fixed {0} mb, fraction {1}, task heap {2}, slots {3}, JVM {4} mb")
    @CsvSource({
        // fixed, fraction, task heap, slots, JVM heap (mb), expected bytes, origin contains,
        // the slot's heap (mb), which a fixed budget does not change
        "256, 0.4, 512m,  2, 640,  268435456,  dedup.bloom.cache-size, 256",
        "0,   0.4, 512m,  2, 640,  107374182,  'of the task heap, 512 mb, over 2 slots', 256",
        "0,   0.5, 8g,    4, 9000, 1073741824, 'of the task heap, 8192 mb, over 4 slots', 2048",
        // a MiniCluster's TaskManager has no task heap set: the JVM's heap stands in
        "0,   0.4, '',    2, 4096, 858993459,  'of the JVM heap, 4096 mb, over 2 slots', 2048",
        // a task heap larger than the JVM's cannot be had: the JVM's heap
        "0,   0.4, 64g,   1, 1024, 429496729,  'of the JVM heap, 1024 mb, over 1 slots', 1024",
        // no slot count: Flink's default of one slot
        "0,   0.4, 512m,  0, 640,  214748364,  'of the task heap, 512 mb, over 1 slots', 512",
        // never below the 1 mb that dedup.bloom.cache-size accepts
        "0,   0.01, 64m,  8, 640,  1048576,    'of the task heap, 64 mb, over 8 slots', 8",
    })
    void resolves(
            long fixedMb,
            double fraction,
            String taskHeap,
            int slots,
            long jvmMb,
            long expected,
            String origin,
            long slotHeapMb) {
        Map<String, String> tm = new java.util.HashMap<>();
        if (taskHeap != null && !taskHeap.isEmpty()) {
            tm.put("taskmanager.memory.task.heap.size", taskHeap);
        }
        if (slots > 0) {
            tm.put("taskmanager.numberOfTaskSlots", Integer.toString(slots));
        }
        FilterCacheBudget b =
                FilterCacheBudget.resolve(
                        fixedMb * MB, fraction, Configuration.fromMap(tm), jvmMb * MB);
        assertThat(b.bytes()).isEqualTo(expected);
        assertThat(b.origin()).contains(origin);
        assertThat(b.slotHeap()).isEqualTo(slotHeapMb * MB);
    }
}
