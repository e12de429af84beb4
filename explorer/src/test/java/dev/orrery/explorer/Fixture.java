package dev.orrery.explorer;

import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Range;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.Simulation;
import dev.orrery.ecs.Query;
import java.util.List;
import java.util.function.BiFunction;

/**
 * A small ticking world for the explorer's tests: {@code units} units with Pos and Vel (a
 * third of them with Health, every tenth Marked, a sparse column), in squads ({@code ChildOf}
 * a squad entity with a Squad component), moved by two systems; ticked on a thread of its own
 * at {@code hz} (0: as fast as it goes) until {@link #close()}.
 */
final class Fixture implements AutoCloseable {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    record Health(@Range(min = 0, max = 100) int hp) {
    }

    record Squad(int number) {
    }

    record Marked(int level) {
    }

    final World world = new World();
    final Component<Pos> pos = world.component(Pos.class);
    final Component<Vel> vel = world.component(Vel.class);
    final Component<Health> health = world.component(Health.class);
    final Component<Squad> squad = world.component(Squad.class);
    final Component<Marked> marked = world.component(Marked.class, Storage.SPARSE);
    final Relation childOf = world.relations().childOf();
    final long[] units;
    final long[] squads;
    final Simulation sim;
    final Explorer explorer;
    final Client client;
    private final Thread ticker;

    Fixture(int unitCount, int squadCount, double hz, BiFunction<Fixture, ExplorerOptions, ExplorerOptions> options)
            throws Exception {
        squads = new long[squadCount];
        for (int s = 0; s < squadCount; s++) {
            squads[s] = world.spawn(new Squad(s));
        }
        units = new long[unitCount];
        for (int i = 0; i < unitCount; i++) {
            units[i] = i % 3 == 0 ? world.spawn(new Pos(i % 1000, i / 1000f), new Vel(1, 0), new Health(100))
                    : world.spawn(new Pos(i % 1000, i / 1000f), new Vel(1, 0));
            if (squadCount > 0) {
                world.relations().add(units[i], childOf, squads[i % squadCount]);
            }
            if (i % 10 == 0) {
                world.add(units[i], marked, new Marked(i));
            }
        }
        Field px = pos.field("x");
        Field vx = vel.field("x");
        sim = Simulation.builder(world).seed(1).workers(2).hashEvery(0).systems(s -> s
                .system("move").query(world.query().with(pos, vel).build()).reads(vel).writes(pos).forEachChunk(job -> {
                    float[] x = job.chunk().writeFloats(px);
                    float[] v = job.chunk().readFloats(vx);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        x[i] = (x[i] + v[i]) % 1000;
                    }
                })
                .system("heal").query(world.query().with(health).build()).reads(health).forEachChunk(job -> { }))
                .build();
        explorer = Explorer.attach(sim, options.apply(this, ExplorerOptions.loopback(0)
                .withRequestTimeout(java.time.Duration.ofSeconds(10))));
        client = new Client(explorer);
        ticker = new Thread(() -> sim.run(0, hz, null), "fixture-tick");
        ticker.setDaemon(true);
    }

    Fixture start() {
        ticker.start();
        return this;
    }

    @Override
    public void close() throws InterruptedException {
        sim.stop(); // a stop before run() began waits for it
        ticker.join(60_000);
        explorer.close();
        sim.close();
    }

    /** A live map of every unit with Pos, one kind. */
    MapSource map() {
        return positions(world.query().with(pos).build(), pos.field("x"), pos.field("y"), 1000);
    }

    /**
     * A map of every entity {@code all} matches at its ({@code x}, {@code y}), one kind
     * ("unit"), {@code side} world units square, read read-only (a look: the map changes no later
     * snapshot). Shared by the tests that attach a map.
     */
    static MapSource positions(Query all, Field x, Field y, float side) {
        return new MapSource() {
            @Override
            public List<String> kinds() {
                return List.of("unit");
            }

            @Override
            public float width() {
                return side;
            }

            @Override
            public float height() {
                return side;
            }

            @Override
            public void sample(MapPoints points) {
                points.total(all.count());
                all.forEachChunkReadOnly(ch -> {
                    float[] xs = ch.readFloats(x);
                    float[] ys = ch.readFloats(y);
                    for (int i = 0; i < ch.size(); i++) {
                        points.add(ch.entity(i), xs[i], ys[i], 0);
                    }
                });
            }
        };
    }

    /** The first entity (in iteration order) holding {@code world}'s first column, or -1. */
    static long firstEntity(World world) {
        long[] out = {-1};
        world.query().with(world.columns().get(0)).build().forEach((chunk, row) -> {
            if (out[0] < 0) {
                out[0] = chunk.entity(row);
            }
        });
        return out[0];
    }
}
