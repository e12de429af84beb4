package dev.orrery.demo;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.query.Query;

/**
 * A small headless example: spawns a crowd of moving agents, runs a few fixed-step ticks
 * over them chunk by chunk, and prints the summary line. It stands in for the server demo
 * until that lands.
 *
 * <p>Usage: {@code java -jar demo/target/orrery-demo.jar [agents] [ticks]}.
 */
public final class Main {
    /** Position of an agent. */
    public record Position(float x, float y) {
    }

    /** Velocity of an agent. */
    public record Velocity(float x, float y) {
    }

    private Main() {
    }

    /** Runs the example. */
    public static void main(String[] args) {
        int agents = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int ticks = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        for (int i = 0; i < agents; i++) {
            float angle = (float) (i * 2.399963); // golden angle: a deterministic spread
            world.spawn(new Position(i % 1000, i / 1000f), new Velocity((float) Math.cos(angle), (float) Math.sin(angle)));
        }
        Query moving = world.query().with(pos, vel).build();
        Field px = pos.field("x");
        Field py = pos.field("y");
        Field vx = vel.field("x");
        Field vy = vel.field("y");
        float dt = 1f / 60f;
        long start = System.nanoTime();
        for (int t = 0; t < ticks; t++) {
            moving.forEachChunk(c -> {
                float[] x = c.writeFloats(px);
                float[] y = c.writeFloats(py);
                float[] u = c.readFloats(vx);
                float[] v = c.readFloats(vy);
                for (int i = 0, n = c.size(); i < n; i++) {
                    x[i] += u[i] * dt;
                    y[i] += v[i] * dt;
                }
            });
        }
        double ms = (System.nanoTime() - start) / 1e6;
        System.out.printf("ticks=%d entities=%d total_ms=%.1f hash=0x%016x%n", ticks, world.entityCount(), ms,
                world.stateHash());
    }
}
