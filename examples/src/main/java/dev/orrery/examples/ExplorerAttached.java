package dev.orrery.examples;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.explorer.Explorer;
import dev.orrery.explorer.ExplorerOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live explorer attached to a running simulation: it serves a page and a JSON API on a
 * loopback port (a free one here) and answers reads of the world at the end of a tick, where
 * no job runs. The program asks {@code /api/summary} over HTTP while the simulation ticks,
 * stops when the answer came, and prints what it says. Open {@link Explorer#url()} in a
 * browser instead to watch a simulation run.
 */
public final class ExplorerAttached {
    record Position(float x, float y) {}
    record Velocity(float dx, float dy) {}

    private static final Pattern ENTITIES = Pattern.compile("\"entities\":(\\d+)");
    private static final Pattern SYSTEMS = Pattern.compile("\"systemNames\":\\[([^]]*)]");

    private ExplorerAttached() {
    }

    /** A thousand movers and one system. */
    static Simulation build() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Field x = pos.field("x"), dx = vel.field("dx");
        world.entity().with(pos, new Position(0, 0)).with(vel, new Velocity(1, 0)).spawnMany(1_000);
        return Simulation.builder(world)
                .systems(s -> s.system("move").query(world.query().with(pos, vel).build()).reads(vel).writes(pos)
                        .forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            float[] px = c.writeFloats(x), vx = c.readFloats(dx);
                            for (int i = 0; i < c.size(); i++) {
                                px[i] += vx[i];
                            }
                        }))
                .build();
    }

    public static void main(String[] args) throws IOException {
        ProgramArgs.atMost("ExplorerAttached", args);
        // snippet:attach
        ExplorerOptions options = ExplorerOptions.loopback(0)                 // port 0: any free port
                .withRequestTimeout(Duration.ofSeconds(30));                   // patient on a busy machine
        try (Simulation sim = build(); Explorer explorer = Explorer.attach(sim, options)) {
            sim.run(10, 0);
            HttpRequest request = HttpRequest.newBuilder(URI.create(explorer.url() + "api/summary"))
                    .timeout(Duration.ofSeconds(60)).build();
            CompletableFuture<HttpResponse<String>> reply = HttpClient.newHttpClient()
                    .sendAsync(request, HttpResponse.BodyHandlers.ofString());
            // the explorer answers at the end of a tick, so keep ticking (60 a second) until it has
            sim.run(0, 60, (tick, nanos) -> {
                if (reply.isDone()) {
                    sim.stop();
                }
            });
            HttpResponse<String> summary = reply.join();
            Matcher entities = ENTITIES.matcher(summary.body()), systems = SYSTEMS.matcher(summary.body());
            System.out.printf("explorer on loopback answered GET /api/summary: status=%d entities=%s systems=[%s]%n",
                    summary.statusCode(), entities.find() ? entities.group(1) : "?",
                    systems.find() ? systems.group(1) : "?");
        }
        // end:attach
    }
}
