package dev.orrery.examples.javadoc;

import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import dev.orrery.scheduler.Schedule;
import java.util.function.Consumer;

/**
 * The Javadoc example of package {@code dev.orrery.engine.host}, as compiled code, with the
 * variables it takes for granted as parameters. See {@code JavadocExamplesTest}.
 */
final class HostExamples {
    /** Where a game server keeps its matches' snapshots. */
    interface Store {
        void save(byte[] snapshot);
    }

    private HostExamples() {
    }

    /** {@link WorldHost}: a match added, snapshotted on its tick thread, and taken back. */
    static void worldHost(World world, Consumer<Schedule.Builder> rules, Store store) {
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            Simulation match = Simulation.builder(world).seed(7).systems(rules).build(); // workers(1): no own threads
            HostedWorld w = host.add("match-17", match, 30.0); // 30 ticks/s from now on
            w.call(Simulation::snapshot).thenAccept(store::save); // on its tick thread, between ticks
            Simulation back = w.remove().join(); // after its tick in progress
        }
    }
}
