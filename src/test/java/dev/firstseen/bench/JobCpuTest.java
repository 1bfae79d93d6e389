package dev.firstseen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How the harness tells the JVM's compiler and collector threads apart in /proc. */
class JobCpuTest {
    private static String stat(String name, long utime, long stime) {
        return "4242 ("
                + name
                + ") S 1 4200 4200 0 -1 4194368 10 0 0 0 "
                + utime
                + " "
                + stime
                + " 0 0 20 0 30 0 2948980 3133440 386";
    }

    @Test
    void compilerAndCollectorThreadsAreSortedOut() {
        assertThat(JobCpu.kindOf(stat("C2 CompilerThre", 1, 2))).isEqualTo(0);
        assertThat(JobCpu.kindOf(stat("C1 CompilerThre", 1, 2))).isEqualTo(0);
        assertThat(JobCpu.kindOf(stat("GC Thread#1", 1, 2))).isEqualTo(1);
        assertThat(JobCpu.kindOf(stat("VM Thread", 1, 2))).isEqualTo(1);
        assertThat(JobCpu.kindOf(stat("G1 Conc#0", 1, 2))).isEqualTo(1);
        assertThat(JobCpu.kindOf(stat("dedup -> front", 1, 2))).isEqualTo(-1);
        // A name may hold spaces and parentheses; the fields count from the last ')'.
        assertThat(JobCpu.kindOf(stat("x) (C2 y", 1, 2))).isEqualTo(-1);
        assertThat(JobCpu.ticksOf(stat("x) S 9 (y", 250, 30))).isEqualTo(280);
        assertThat(JobCpu.ticksOf(stat("C2 CompilerThre", 7, 0))).isEqualTo(7);
    }

    @Test
    void thisJvmHasThreadsOfBothKinds() throws Exception {
        // The names HotSpot gives its hidden threads, as this JVM's /proc shows them.
        java.nio.file.Path self = java.nio.file.Path.of("/proc/self/task");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(self));
        boolean[] found = new boolean[2];
        try (var tasks = java.nio.file.Files.newDirectoryStream(self)) {
            for (java.nio.file.Path t : tasks) {
                int kind = JobCpu.kindOf(java.nio.file.Files.readString(t.resolve("stat")));
                if (kind >= 0) {
                    found[kind] = true;
                }
            }
        }
        assertThat(found).containsExactly(true, true);
    }
}
