package dev.orrery.testkit.probe;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.testkit.DeterminismCheck;
import java.util.List;

/**
 * A game's test as a program, for {@code ModulePathTest} to run in a JVM whose module path and
 * class path it lays out: prints how many runs the check compared, or what refused it.
 */
public final class ModulePathProbe {
    /** A component of the probe's game. */
    public record Spark(float v) {}

    private ModulePathProbe() {
    }

    /** Runs a short determinism check and prints "ran N" or "refused: " and the throwable. */
    public static void main(String[] args) {
        try {
            List<String> runs = DeterminismCheck.of(ModulePathProbe::build).ticks(3).workers(1, 2).run();
            System.out.println("ran " + runs.size());
        } catch (Throwable t) {
            System.out.println("refused: " + t);
        }
    }

    private static Simulation build(int workers, boolean populate) {
        World world = new World();
        Component<Spark> spark = world.component(Spark.class);
        Field v = spark.field("v");
        for (int i = 0; populate && i < 10; i++) {
            world.spawn(new Spark(i));
        }
        return Simulation.builder(world).workers(workers)
                .systems(s -> s.system("glow").query(world.query().with(spark).build()).writes(spark)
                        .forEachChunk(job -> {
                            float[] g = job.chunk().writeFloats(v);
                            for (int i = 0; i < job.chunk().size(); i++) {
                                g[i] += 1;
                            }
                        }))
                .build();
    }
}
