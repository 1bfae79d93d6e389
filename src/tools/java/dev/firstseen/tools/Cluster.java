package dev.firstseen.tools;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.rest.messages.EmptyMessageParameters;
import org.apache.flink.runtime.rest.messages.EmptyRequestBody;
import org.apache.flink.runtime.rest.messages.JobExceptionsHeaders;
import org.apache.flink.runtime.rest.messages.JobExceptionsInfoWithHistory;
import org.apache.flink.runtime.rest.messages.JobMessageParameters;
import org.apache.flink.runtime.rest.messages.MessageHeaders;
import org.apache.flink.runtime.rest.messages.MessageParameters;
import org.apache.flink.runtime.rest.messages.ResponseBody;
import org.apache.flink.runtime.rest.messages.checkpoints.CheckpointStatistics;
import org.apache.flink.runtime.rest.messages.checkpoints.CheckpointingStatistics;
import org.apache.flink.runtime.rest.messages.checkpoints.CheckpointingStatisticsHeaders;
import org.apache.flink.runtime.rest.messages.job.JobDetailsInfo;
import org.apache.flink.runtime.rest.messages.job.JobExceptionsMessageParameters;
import org.apache.flink.runtime.rest.messages.taskmanager.TaskManagerInfo;
import org.apache.flink.runtime.rest.messages.taskmanager.TaskManagersHeaders;

/**
 * The queries and waits {@code scripts/cluster} and {@code scripts/faults} need from a running
 * Flink cluster, through Flink's own REST client ({@link RestClusterClient}) rather than JSON read
 * with grep. Submitting, savepoints, stopping and cancelling go through Flink's command line
 * ({@code scripts/flink}), the way users drive their own clusters.
 *
 * <pre>
 * Cluster --rest-port P taskmanagers                  resource ids of the registered TaskManagers
 * Cluster --rest-port P await-taskmanager ID [S]      waits until TaskManager ID is registered
 * Cluster --rest-port P jobs                          "id state name" per job
 * Cluster --rest-port P state JOB
 * Cluster --rest-port P await-state JOB STATE [S]     waits until JOB is in STATE (fails if it ends otherwise)
 * Cluster --rest-port P wait-running JOB [S]          waits until every task of JOB runs
 * Cluster --rest-port P checkpoint JOB                id of the latest completed checkpoint, 0 if none
 * Cluster --rest-port P await-checkpoint JOB ID [S]   waits for a completed checkpoint newer than ID
 * Cluster --rest-port P exception JOB                 the newest root exception's stack trace
 * </pre>
 *
 * Waits poll twice a second for S seconds (default 120) and exit with status 1 when they time out.
 */
public final class Cluster {
    private static final long POLL_MS = 500;

    private final RestClusterClient<String> client;

    private Cluster(RestClusterClient<String> client) {
        this.client = client;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || !args[0].equals("--rest-port")) {
            usage();
        }
        Configuration conf = new Configuration();
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, Integer.parseInt(args[1]));
        conf.set(RestOptions.RETRY_MAX_ATTEMPTS, 2);
        conf.set(RestOptions.RETRY_DELAY, Duration.ofMillis(200));
        String command = args[2];
        String[] rest = java.util.Arrays.copyOfRange(args, 3, args.length);
        int status;
        try (RestClusterClient<String> client = new RestClusterClient<>(conf, "firstseen-local")) {
            status = new Cluster(client).run(command, rest);
        }
        // The client's Netty threads are not daemons.
        System.exit(status);
    }

    private int run(String command, String[] a) throws Exception {
        switch (command) {
            case "taskmanagers":
                taskManagers().forEach(System.out::println);
                return 0;
            case "await-taskmanager":
                return await(seconds(a, 1), () -> taskManagers().contains(a[0]))
                        ? 0
                        : fail("TaskManager " + a[0] + " did not register");
            case "jobs":
                for (JobStatusMessage j : get(client.listJobs())) {
                    System.out.println(j.getJobId() + " " + j.getJobState() + " " + j.getJobName());
                }
                return 0;
            case "state":
                System.out.println(get(client.getJobStatus(job(a))));
                return 0;
            case "await-state":
                return awaitState(job(a), JobStatus.valueOf(a[1]), seconds(a, 2));
            case "wait-running":
                return awaitRunning(job(a), seconds(a, 1));
            case "checkpoint":
                System.out.println(latestCheckpoint(job(a)));
                return 0;
            case "await-checkpoint":
                long after = Long.parseLong(a[1]);
                return await(seconds(a, 2), () -> latestCheckpoint(job(a)) > after)
                        ? 0
                        : fail("job " + a[0] + ": no checkpoint after " + after);
            case "exception":
                String trace = newestException(job(a));
                if (trace != null) {
                    System.out.println(trace);
                }
                return 0;
            default:
                usage();
                return 2;
        }
    }

    private List<String> taskManagers() throws Exception {
        Collection<TaskManagerInfo> infos =
                get(TaskManagersHeaders.getInstance(), EmptyMessageParameters.getInstance())
                        .getTaskManagerInfos();
        return infos.stream().map(i -> i.getResourceId().getResourceIdString()).toList();
    }

    private int awaitState(JobID job, JobStatus wanted, long seconds) throws Exception {
        JobStatus[] last = {null};
        boolean reached =
                await(
                        seconds,
                        () -> {
                            last[0] = get(client.getJobStatus(job));
                            return last[0] == wanted || last[0].isGloballyTerminalState();
                        });
        if (reached && last[0] == wanted) {
            return 0;
        }
        return fail("job " + job + " is " + last[0] + ", not " + wanted);
    }

    /** Every task RUNNING (or already FINISHED); fails at once if the job ends. */
    private int awaitRunning(JobID job, long seconds) throws Exception {
        JobStatus[] last = {null};
        boolean running =
                await(
                        seconds,
                        () -> {
                            JobDetailsInfo details = get(client.getJobDetails(job));
                            last[0] = details.getJobStatus();
                            if (last[0].isGloballyTerminalState()) {
                                return true;
                            }
                            return last[0] == JobStatus.RUNNING
                                    && details.getJobVertexInfos().stream()
                                            .allMatch(v -> allRunning(v.getTasksPerState()));
                        });
        if (running && last[0] == JobStatus.RUNNING) {
            return 0;
        }
        return fail("job " + job + ": not all tasks running (job " + last[0] + ")");
    }

    private static boolean allRunning(Map<ExecutionState, Integer> tasksPerState) {
        return tasksPerState.entrySet().stream()
                .allMatch(
                        e ->
                                e.getValue() == 0
                                        || e.getKey() == ExecutionState.RUNNING
                                        || e.getKey() == ExecutionState.FINISHED);
    }

    private long latestCheckpoint(JobID job) throws Exception {
        JobMessageParameters params = new JobMessageParameters();
        params.jobPathParameter.resolve(job);
        CheckpointingStatistics stats = get(CheckpointingStatisticsHeaders.getInstance(), params);
        CheckpointStatistics latest =
                stats.getLatestCheckpoints().getCompletedCheckpointStatistics();
        return latest == null ? 0 : latest.getId();
    }

    private String newestException(JobID job) throws Exception {
        JobExceptionsMessageParameters params = new JobExceptionsMessageParameters();
        params.jobPathParameter.resolve(job);
        JobExceptionsInfoWithHistory info = get(JobExceptionsHeaders.getInstance(), params);
        List<JobExceptionsInfoWithHistory.RootExceptionInfo> entries =
                info.getExceptionHistory().getEntries();
        return entries.isEmpty() ? null : entries.get(0).getStacktrace();
    }

    private interface Check {
        boolean done() throws Exception;
    }

    /**
     * Polls until {@code check} is true or {@code seconds} pass; REST errors count as "not yet".
     */
    private static boolean await(long seconds, Check check) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            try {
                if (check.done()) {
                    return true;
                }
            } catch (Exception e) {
                // The JobManager may be busy restarting the job or not up yet: poll again.
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(POLL_MS);
        }
    }

    private static <T> T get(java.util.concurrent.CompletableFuture<T> f) throws Exception {
        return f.get(30, TimeUnit.SECONDS);
    }

    /** A GET of the REST API with no request body. */
    private <P extends ResponseBody, U extends MessageParameters> P get(
            MessageHeaders<EmptyRequestBody, P, U> headers, U params) throws Exception {
        return get(client.sendRequest(headers, params, EmptyRequestBody.getInstance()));
    }

    private static JobID job(String[] a) {
        if (a.length == 0) {
            usage();
        }
        return JobID.fromHexString(a[0]);
    }

    private static long seconds(String[] a, int index) {
        return a.length > index ? Long.parseLong(a[index]) : 120;
    }

    private static int fail(String message) {
        System.err.println(message);
        return 1;
    }

    private static void usage() {
        System.err.println(
                "usage: Cluster --rest-port P taskmanagers | await-taskmanager ID [S] | jobs"
                        + " | state JOB | await-state JOB STATE [S] | wait-running JOB [S]"
                        + " | checkpoint JOB | await-checkpoint JOB ID [S] | exception JOB");
        System.exit(2);
    }
}
