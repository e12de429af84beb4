package dev.orrery.bench.explorer;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.explorer.Explorer;
import dev.orrery.explorer.ExplorerOptions;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Locale;

/**
 * What the explorer costs per tick, from one run: a simulation of {@code entities} moving
 * entities over four systems on two workers, ticked as fast as it goes in rounds that take
 * turns between three modes, so drift in the machine falls on all three alike: without the
 * explorer; attached with no client (the end-of-tick hook records the ring and polls an empty
 * queue); attached with a client streaming the figures (the systems are timed through a job
 * observer). Prints each mode's median of the rounds' mean tick time, and the ratios to the
 * run without the explorer.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar dev.orrery.bench.explorer.ExplorerCostReport
 * [entities] [rounds] [ticksPerRound]} (defaults 100000, 15, 200).
 */
public final class ExplorerCostReport {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    private ExplorerCostReport() {
    }

    /** Runs the report. */
    public static void main(String[] args) throws Exception {
        int entities = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int ticks = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        world.entity().with(pos, new Pos(0, 0)).with(vel, new Vel(1, 0.5f)).spawnMany(entities);
        Field px = pos.field("x");
        Field py = pos.field("y");
        Field vx = vel.field("x");
        try (Simulation sim = Simulation.builder(world).seed(1).workers(2).systems(s -> {
            for (int k = 0; k < 4; k++) {
                s.system("move" + k).query(world.query().with(pos, vel).build()).reads(vel).writes(pos)
                        .forEachChunk(job -> {
                            float[] x = job.chunk().writeFloats(px);
                            float[] y = job.chunk().writeFloats(py);
                            float[] v = job.chunk().readFloats(vx);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                x[i] += v[i];
                                y[i] -= v[i];
                            }
                        });
            }
        }).build()) {
            double[][] means = new double[3][rounds];
            sim.run(ticks * 3L, 0, null); // warm-up
            for (int r = 0; r < rounds; r++) {
                means[0][r] = round(sim, ticks);
                Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0));
                means[1][r] = round(sim, ticks);
                HttpClient http = HttpClient.newHttpClient();
                HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(URI.create(explorer.url()
                        + "api/stream")).build(), HttpResponse.BodyHandlers.ofInputStream());
                Thread reader = new Thread(() -> drain(stream.body()), "stream-reader");
                reader.setDaemon(true);
                reader.start();
                sim.run(2, 0, null); // the hook sees the client and installs the job observer
                means[2][r] = round(sim, ticks);
                stream.body().close();
                explorer.close();
            }
            double none = median(means[0]);
            double idle = median(means[1]);
            double attached = median(means[2]);
            System.out.printf(Locale.ROOT, "explorer cost: entities=%d rounds=%d ticks_per_round=%d workers=2%n",
                    entities, rounds, ticks);
            System.out.printf(Locale.ROOT, "  without explorer:   %8.1f us/tick%n", none / 1e3);
            System.out.printf(Locale.ROOT, "  attached, idle:     %8.1f us/tick (%.3fx)%n", idle / 1e3, idle / none);
            System.out.printf(Locale.ROOT, "  attached, streaming: %7.1f us/tick (%.3fx)%n", attached / 1e3,
                    attached / none);
        }
    }

    private static double round(Simulation sim, int ticks) {
        long t0 = System.nanoTime();
        sim.run(ticks, 0, null);
        return (System.nanoTime() - t0) / (double) ticks;
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
}
