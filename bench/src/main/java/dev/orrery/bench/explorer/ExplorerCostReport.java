package dev.orrery.bench.explorer;

import dev.orrery.bench.fixture.CommandLine;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.explorer.Explorer;
import dev.orrery.explorer.ExplorerOptions;
import dev.orrery.explorer.MapPoints;
import dev.orrery.explorer.MapSource;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the explorer costs per tick, from one run: a simulation of {@code entities} moving
 * entities over four systems on two workers, ticked as fast as it goes in rounds that take
 * turns between four modes, so drift in the machine falls on all of them alike: without the
 * explorer (detached); attached with no client (the end-of-tick hook records the ring and
 * polls an empty queue); attached with three pages streaming the figures (the systems are
 * timed through a job observer); attached with two clients looping the largest read, the
 * live map of every entity ({@code /api/map?max=200000}). Prints each mode's median of the
 * rounds' mean tick time and ticks per second, and the ratios to detached.
 *
 * <p>The clients run in this process, on the same cores as the simulation, so the last mode
 * also counts their own work (receiving and parsing the answers); the explorer's share of
 * the tick thread is the {@code explorerMs} it reports, which the report prints too.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar dev.orrery.bench.explorer.ExplorerCostReport
 * [entities] [rounds] [ticksPerRound]} (defaults 100000, 15, 200).
 */
public final class ExplorerCostReport {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    private static final String[] MODES = {"detached", "attached, idle", "3 pages streaming",
        "2 clients looping the map"};

    private ExplorerCostReport() {
    }

    /** Runs the report. */
    public static void main(String[] args) throws Exception {
        CommandLine.main(ExplorerCostReport.class, args, ExplorerCostReport::run);
    }

    private static void run(String[] args) throws Exception {
        String[] a = new CommandLine(args, ExplorerCostReport.class, "[entities] [rounds] [ticksPerRound]",
                "The explorer's cost per tick: detached, attached idle, 3 pages streaming, 2 clients looping the map, "
                + "taking turns over rounds\n(defaults 100000 entities, 15 rounds, 200 ticks a round).").positionals(3);
        int entities = a.length > 0 ? CommandLine.intAtLeast("entities", a[0], 1, CommandLine.ENTITIES) : 100_000;
        int rounds = a.length > 1 ? CommandLine.intAtLeast("rounds", a[1], 1, CommandLine.REPEATS) : 15;
        int ticks = a.length > 2 ? CommandLine.intAtLeast("ticksPerRound", a[2], 1, CommandLine.TICKS) : 200;
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        world.entity().with(pos, new Pos(0, 0)).with(vel, new Vel(1, 0.5f)).spawnMany(entities);
        Field px = pos.field("x");
        Field py = pos.field("y");
        Field vx = vel.field("x");
        Query all = world.query().with(pos).build();
        MapSource map = new EveryEntity(all, px, py);
        long[] served = new long[1];
        double[][] own = new double[MODES.length][rounds];
        try (Simulation sim = Simulation.builder(world).seed(1).workers(2).systems(s -> {
            for (int k = 0; k < 4; k++) {
                s.system("move" + k).query(world.query().with(pos, vel).build()).reads(vel).writes(pos)
                        .forEachChunk(job -> {
                            float[] x = job.chunk().writeFloats(px);
                            float[] y = job.chunk().writeFloats(py);
                            float[] v = job.chunk().readFloats(vx);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                x[i] = (x[i] + v[i]) % 1000;
                                y[i] = Math.abs(y[i] - v[i]) % 1000;
                            }
                        });
            }
        }).build()) {
            double[][] means = new double[MODES.length][rounds];
            sim.run(ticks * 3L, 0, null); // warm-up
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < MODES.length; k++) {
                    int mode = (r + k) % MODES.length; // a different mode first each round
                    double[] o = new double[1];
                    means[mode][r] = round(sim, ticks, mode, map, served, o);
                    own[mode][r] = o[0];
                }
            }
            System.out.printf(Locale.ROOT, "explorer cost: entities=%d rounds=%d ticks_per_round=%d workers=2"
                    + " cores=%d%n", entities, rounds, ticks, Runtime.getRuntime().availableProcessors());
            double none = median(means[0]);
            for (int m = 0; m < MODES.length; m++) {
                double v = median(means[m]);
                System.out.printf(Locale.ROOT, "  %-28s %9.1f us/tick %7.1f ticks/s (%.3fx the tick, %.3fx the rate)"
                        + "%s%n", MODES[m] + ":", v / 1e3, 1e9 / v, v / none, none / v,
                        m == 0 ? "" : String.format(Locale.ROOT, "; explorer's own %.1f us/tick",
                                median(own[m]) * 1e3));
            }
            System.out.printf(Locale.ROOT, "  map answers served while looping: %d%n", served[0]);
        }
    }

    /** One round of {@code ticks} ticks in {@code mode}; the mean tick time in nanoseconds. */
    private static double round(Simulation sim, int ticks, int mode, MapSource map, long[] served, double[] own)
            throws Exception {
        if (mode == 0) {
            return measure(sim, ticks);
        }
        Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withMap(map));
        List<AutoCloseable> clients = new ArrayList<>();
        try {
            if (mode == 2) {
                for (int p = 0; p < 3; p++) {
                    clients.add(stream(explorer));
                }
            }
            AtomicLong answers = new AtomicLong();
            if (mode == 3) {
                for (int c = 0; c < 2; c++) {
                    clients.add(loop(explorer, answers));
                }
            }
            sim.run(mode >= 2 ? 30 : 2, 0, null); // the hook sees the clients and installs the job observer
            double mean = measure(sim, ticks);
            served[0] += answers.get();
            own[0] = ownMillis(explorer, ticks);
            return mean;
        } finally {
            for (AutoCloseable c : clients) {
                c.close();
            }
            explorer.close();
        }
    }

    /** The explorer's own mean milliseconds per tick over the last {@code ticks} ticks, from its history. */
    private static double ownMillis(Explorer explorer, int ticks) throws Exception {
        String h = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(explorer.url() + "api/history"))
                .build(), HttpResponse.BodyHandlers.ofString()).body(); // served off the tick thread
        int at = h.indexOf("\"explorerMs\":[") + 14;
        String[] v = h.substring(at, h.indexOf(']', at)).split(",");
        double sum = 0;
        int n = 0;
        for (int i = Math.max(0, v.length - ticks); i < v.length; i++) {
            sum += Double.parseDouble(v[i]);
            n++;
        }
        return n == 0 ? 0 : sum / n;
    }

    private static double measure(Simulation sim, int ticks) {
        long t0 = System.nanoTime();
        sim.run(ticks, 0, null);
        return (System.nanoTime() - t0) / (double) ticks;
    }

    /** A page's event stream, read and discarded on a thread of its own until closed. */
    private static AutoCloseable stream(Explorer explorer) throws Exception {
        HttpResponse<InputStream> stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(explorer.url() + "api/stream")).build(), HttpResponse.BodyHandlers.ofInputStream());
        Thread reader = new Thread(() -> drain(stream.body()), "stream-reader");
        reader.setDaemon(true);
        reader.start();
        return () -> stream.body().close();
    }

    /** A client asking for the whole map again and again until closed. */
    private static AutoCloseable loop(Explorer explorer, AtomicLong answers) {
        AtomicBoolean on = new AtomicBoolean(true);
        Thread t = new Thread(() -> {
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(URI.create(explorer.url() + "api/map?max=200000")).build();
            while (on.get()) {
                try {
                    http.send(get, HttpResponse.BodyHandlers.discarding());
                    answers.incrementAndGet();
                } catch (Exception e) {
                    return; // the explorer closed
                }
            }
        }, "map-client");
        t.setDaemon(true);
        t.start();
        return () -> {
            on.set(false);
            t.join(10_000);
        };
    }

    private static void drain(InputStream in) {
        byte[] buf = new byte[4096];
        try (in) {
            while (in.read(buf) >= 0) {
                // discard: the report measures the tick, not the client
            }
        } catch (java.io.IOException e) {
            // closed by the report
        }
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** The live map of every entity: the largest read the explorer serves. */
    private record EveryEntity(Query all, Field x, Field y) implements MapSource {
        @Override
        public List<String> kinds() {
            return List.of("entity");
        }

        @Override
        public float width() {
            return 1000;
        }

        @Override
        public float height() {
            return 1000;
        }

        @Override
        public void sample(MapPoints points) {
            points.total(all.count());
            all.forEachChunkReadOnly(c -> { // a look, as MapSource asks: no change tick taken
                float[] xs = c.readFloats(x);
                float[] ys = c.readFloats(y);
                for (int i = 0, n = c.size(); i < n; i++) {
                    points.add(c.entity(i), xs[i], ys[i], 0);
                }
            });
        }
    }
}
