package dev.orrery.examples.javadoc;

import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import dev.orrery.explorer.Explorer;
import dev.orrery.explorer.ExplorerOptions;
import dev.orrery.scheduler.Schedule;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * The Javadoc example of package {@code dev.orrery.explorer}, as compiled code, with the
 * variables it takes for granted as parameters. See {@code JavadocExamplesTest}.
 */
final class ExplorerExamples {
    private ExplorerExamples() {
    }

    /** {@link Explorer}: attached for the whole run, closed before the simulation. */
    static void explorer(World world, Consumer<Schedule.Builder> rules) throws IOException {
        try (Simulation sim = Simulation.builder(world).systems(rules).build();
             Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(8080))) {
            System.out.println("open " + explorer.url());   // http://127.0.0.1:8080/
            sim.run(0, 60);                                  // at 60 Hz until stop()
        }
    }
}
