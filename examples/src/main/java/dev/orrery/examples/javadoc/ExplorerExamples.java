package dev.orrery.examples.javadoc;

import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import dev.orrery.explorer.Explorer;
import dev.orrery.explorer.ExplorerOptions;
import dev.orrery.explorer.Timeline;
import dev.orrery.scheduler.Schedule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The Javadoc examples of package {@code dev.orrery.explorer}, as compiled code, with the
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

    /** {@link Timeline}: the page travels back in the run being recorded into {@code dir}. */
    static Explorer timeline(Simulation sim, Path dir) throws IOException {
        Timeline past = Timeline.ofRecording(dir, () -> buildMySimulation(1));   // one worker: cores for the live run
        Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(8080).withTimeline(past));
        return explorer;
    }

    /** A fresh simulation built as the recorded one was (here: an empty world). */
    private static Simulation buildMySimulation(int workers) {
        return Simulation.builder(new World()).workers(workers).build();
    }
}
