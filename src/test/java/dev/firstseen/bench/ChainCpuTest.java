package dev.firstseen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ChainCpuTest {
    @Test
    void taskThreadsAreToldByTheirSubtaskSuffix() {
        assertThat(ChainCpu.isTask("dedup -> frontier: Writer -> frontier: Committer (1/2)#0"))
                .isTrue();
        assertThat(ChainCpu.isTask("Source: input -> decode -> canonicalize (2/2)#3")).isTrue();
        assertThat(ChainCpu.isTask("kafka-producer-network-thread | producer-7")).isFalse();
        assertThat(ChainCpu.isTask("rocksdb:low")).isFalse();
        assertThat(ChainCpu.isTask(null)).isFalse();
    }

    /**
     * Threads started after the sampler, named as Flink names task threads, are counted by chain,
     * even once they have ended; a thread alive before it, and a source's fetcher and the
     * dead-letter sink, are not. Each thread burns a set amount of its own CPU time and then waits
     * before it ends, so that the sampler reads its final time: the counts are those amounts, and
     * one more thread counted would pass the upper bounds.
     */
    @Test
    void countsTheCpuOfEachChainsThreadsAfterTheyEnd() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        Thread before =
                new Thread(
                        () -> {
                            try {
                                go.await();
                                burn(MS * 150);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "dedup -> frontier: Writer (2/2)#0");
        before.start();
        try (ChainCpu chains = ChainCpu.start()) {
            go.countDown();
            before.join();
            run("dedup -> frontier: Writer (1/2)#0", MS * 200);
            run("Source: input -> decode (1/2)#0", MS * 100);
            run("Source Data Fetcher for Source: input (1/2)#0", MS * 150);
            run("dead-letters: Writer (1/1)#0", MS * 150);
            chains.close();
            assertThat(chains.keyedChainNanos()).isBetween(MS * 200, MS * 300);
            assertThat(chains.sourceChainNanos()).isBetween(MS * 100, MS * 200);
        }
    }

    private static final long MS = 1_000_000L;

    private static void run(String name, long cpuNanos) throws InterruptedException {
        Thread t =
                new Thread(
                        () -> {
                            try {
                                burn(cpuNanos);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        name);
        t.start();
        t.join();
    }

    /**
     * Spins until this thread has used {@code cpuNanos} of CPU, then sleeps long enough for the
     * sampler to read that.
     */
    private static void burn(long cpuNanos) throws InterruptedException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < cpuNanos) {
            for (int i = 0; i < 10_000; i++) {
                x += x * 31 + 7;
            }
        }
        if (x == 42) {
            System.out.print("");
        }
        Thread.sleep(300);
    }
}
