package dev.orrery.examples;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.States;

/**
 * Control flow without if-statements in the systems: a state machine ({@link States}: lobby,
 * playing, over) with systems run on entering and leaving a state, run conditions on systems
 * and on a phase, and a fixed-timestep physics phase (50 Hz under a 60 Hz tick). Prints each
 * change of state and the state hash on 1 and 2 workers. Run it with a tick count ({@code 240}
 * by default).
 */
public final class Flow {
    record Position(float x, float y) {}
    record Velocity(float dx, float dy) {}

    // snippet:states
    enum Mode { LOBBY, PLAYING, OVER }
    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
    // end:states

    // snippet:fixed-step
    /** The physics phase and its accumulator: 20 ms steps fed 1/60 s a tick, so 0 or 1 steps a tick. */
    static final Phase PHYSICS = Phase.named("Physics");
    static final ResourceKey<FixedTimestep> PHYSICS_CLOCK = ResourceKey.of("physics clock", FixedTimestep.class);
    static final float STEP_SECONDS = 0.02f;
    // end:fixed-step

    static final int BALLS = 500;

    private Flow() {
    }

    /** The game: an empty world in the lobby, its phases and five systems, on {@code workers} threads. */
    static Simulation build(int workers) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Field x = pos.field("x"), y = pos.field("y"), dx = vel.field("dx"), dy = vel.field("dy");
        Query balls = world.query().with(pos, vel).build();
        // snippet:conditions
        RunCondition lobbyFull = RunCondition.resource(Simulation.CLOCK, c -> c.tick() >= 30)
                .describedAs("half a second in the lobby");
        RunCondition timeUp = RunCondition.resource(PHYSICS_CLOCK, f -> f.steps() >= 100)
                .describedAs("two seconds of physics");
        // end:conditions
        // snippet:schedule
        return Simulation.builder(world).workers(workers)
                .resource(MODE, new States<>(Mode.class, Mode.LOBBY))     // snapshots carry both of these
                .resource(PHYSICS_CLOCK, new FixedTimestep(20_000_000, 16_666_667, 4))   // in nanoseconds
                .systems(s -> s.phases(Phase.PRE_UPDATE, PHYSICS, Phase.UPDATE, Phase.POST_UPDATE)
                        .fixedTimestep(PHYSICS, PHYSICS_CLOCK)
                        .runIf(PHYSICS, RunCondition.inState(MODE, Mode.PLAYING))   // no physics but in play
                        .system("start").runIf(RunCondition.inState(MODE, Mode.LOBBY).and(lobbyFull))
                        .writesResource(MODE)
                        .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(MODE).request(Mode.PLAYING))
                        // runs once, at the start of the tick after the request
                        .system("drop balls").onEnter(MODE, Mode.PLAYING).spawns(pos, vel)
                        .forEachRange(() -> BALLS, (job, from, to) -> {
                            for (int i = from; i < to; i++) {
                                long ball = job.commands().spawn();
                                job.commands().add(ball, pos, new Position(i, 10 + i % 7));
                                job.commands().add(ball, vel, new Velocity(i % 5 - 2, i % 3));
                            }
                        })
                        .system("fall").inPhase(PHYSICS).query(balls).writes(pos, vel).forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            float[] px = c.writeFloats(x), py = c.writeFloats(y);
                            float[] vx = c.writeFloats(dx), vy = c.writeFloats(dy);
                            for (int i = 0; i < c.size(); i++) {
                                vy[i] -= 9.81f * STEP_SECONDS;
                                px[i] += vx[i] * STEP_SECONDS;
                                py[i] += vy[i] * STEP_SECONDS;
                                if (py[i] < 0) {                                  // bounce off the floor
                                    py[i] = -py[i];
                                    vy[i] *= -0.8f;
                                }
                            }
                        })
                        .system("whistle").runIf(RunCondition.inState(MODE, Mode.PLAYING).and(timeUp))
                        .writesResource(MODE)
                        .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(MODE).request(Mode.OVER))
                        .system("freeze").onExit(MODE, Mode.PLAYING).query(balls).removes(vel).forEachChunk(job -> {
                            for (int i = 0; i < job.chunk().size(); i++) {
                                job.commands().remove(job.chunk().entity(i), vel);
                            }
                        }))
                .build();
        // end:schedule
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("Flow", args, "ticks");
        int ticks = ProgramArgs.number("Flow", args, 0, "ticks", 240, 1, 1_000_000);
        for (int workers = 1; workers <= 2; workers++) {
            try (Simulation sim = build(workers)) {
                // snippet:watch
                Query moving = sim.world().query().with(sim.world().component(Velocity.class)).build();
                Mode last = null;
                for (int t = 0; t < ticks; t++) {
                    long tick = sim.tick();                                // runs one tick, returns its number
                    Mode now = sim.resources().get(MODE).current();
                    if (now != last && workers == 1) {
                        System.out.printf("after tick %d: %s, %d balls moving, %d physics steps%n", tick, now,
                                moving.count(), sim.resources().get(PHYSICS_CLOCK).steps());
                    }
                    last = now;
                }
                // end:watch
                System.out.printf("%d worker(s), %d ticks: hash=%016x%n", workers, ticks, sim.world().stateHash());
            }
        }
    }
}
