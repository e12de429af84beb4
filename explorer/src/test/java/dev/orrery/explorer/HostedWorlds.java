package dev.orrery.explorer;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import java.util.Set;
import java.util.TreeSet;

/**
 * Test support for the explorer over worlds on a {@code WorldHost}: a small drifting world to
 * host, and the names of the threads a test may leave behind. Called on the test's thread.
 */
final class HostedWorlds {
    /** The one component of {@link #drifting()}'s world. */
    record Pos(float x) {
    }

    private HostedWorlds() {
    }

    /** A simulation of 50 entities whose one system, 'drift', adds 1 to each x every tick. */
    static Simulation drifting() {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Field x = pos.field("x");
        for (int i = 0; i < 50; i++) {
            world.spawn(new Pos(i));
        }
        return Simulation.builder(world).seed(1).systems(s -> s.system("drift").query(world.query().with(pos).build())
                .writes(pos).forEachChunk(job -> {
                    float[] a = job.chunk().writeFloats(x);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        a[i] += 1;
                    }
                })).build();
    }

    /** The threads alive now that were not in {@code before}, less the JDK's and JUnit's own. */
    static Set<String> leftOver(Set<String> before) {
        Set<String> now = threadNames();
        now.removeAll(before);
        now.removeIf(n -> n.startsWith("HttpClient") || n.startsWith("junit") || n.startsWith("process reaper")
                || n.startsWith("Common-Cleaner") || n.startsWith("ForkJoinPool"));
        return now;
    }

    /**
     * Waits up to 30 s for the threads not in {@code before} ({@link #leftOver}) to end, and
     * returns those still alive then (empty when all ended).
     */
    static Set<String> awaitLeftOver(Set<String> before) throws InterruptedException {
        long until = System.nanoTime() + 30_000_000_000L;
        Set<String> left = leftOver(before);
        while (!left.isEmpty() && System.nanoTime() < until) {
            Thread.sleep(100);
            left = leftOver(before);
        }
        return left;
    }

    /** The names of the threads alive now. */
    static Set<String> threadNames() {
        Set<String> names = new TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive()) {
                names.add(t.getName());
            }
        }
        return names;
    }
}
