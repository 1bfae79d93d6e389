package dev.firstseen.tools;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/** Creates (or re-creates) topics: {@code Topics --bootstrap B --create a,b [--partitions 2]}. */
public final class Topics {
    private Topics() {}

    static final String USAGE =
            "Usage: Topics --bootstrap HOST:PORT --create TOPIC[,TOPIC...] [--partitions N]"
                    + " [--recreate]";

    public static void main(String[] argv) throws Exception {
        ToolArgs args = new ToolArgs(argv, USAGE);
        String bootstrap = args.required("bootstrap");
        List<String> names = Arrays.asList(args.required("create").split(","));
        int partitions = (int) args.getLong("partitions", 2);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            if (args.has("recreate")) {
                List<String> drop = names.stream().filter(existing::contains).toList();
                if (!drop.isEmpty()) {
                    admin.deleteTopics(drop).all().get(30, TimeUnit.SECONDS);
                    waitGone(admin, drop);
                }
                existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            }
            List<NewTopic> create = new ArrayList<>();
            for (String n : names) {
                if (!existing.contains(n)) {
                    create.add(new NewTopic(n, partitions, (short) 1));
                }
            }
            if (!create.isEmpty()) {
                admin.createTopics(create).all().get(30, TimeUnit.SECONDS);
            }
            System.err.println("topics ready: " + names);
        }
    }

    private static void waitGone(Admin admin, List<String> names) throws Exception {
        for (int i = 0; i < 100; i++) {
            Set<String> now = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            if (names.stream().noneMatch(now::contains)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("Topics were not deleted: " + names);
    }
}
