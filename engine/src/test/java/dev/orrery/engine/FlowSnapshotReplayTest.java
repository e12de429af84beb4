package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.event.EventChannel;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A simulation with events that cross the tick boundary (deaths sent at the end of a tick,
 * read by a system at the start of the next), a state machine, a fixed-timestep phase and run
 * conditions: restored from a snapshot taken mid-run (with deaths still unread, a transition
 * requested and a part step accumulated) it goes on with the same state hash after every tick,
 * and a recording replays bit for bit on 1 and 4 workers.
 */
class FlowSnapshotReplayTest {
    record Hp(int hp) {
    }

    record Tally(long order) {
    }

    record Death(long entity) {
    }

    enum Mode { REST, FIGHT }

    static final int TICKS = 120;
    /** The snapshot is taken after tick SNAP - 1, which requests REST (FIGHT since tick 41). */
    static final int SNAP = 56;
    static final Phase FIXED = Phase.named("Fixed");
    static final EventKey<Death> DEATHS = EventKey.of("deaths", Death.class);
    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("step", FixedTimestep.class);
    static final ResourceCodec<Death> DEATH_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Death value, DataOutput out) throws IOException {
            out.writeLong(value.entity());
        }

        @Override
        public Death read(DataInput in) throws IOException {
            return new Death(in.readLong());
        }
    };

    static Simulation build(int workers, boolean populate) {
        return build(workers, populate, true);
    }

    /**
     * The flow workload; without {@code eventCodec} the deaths channel is the one the schedule
     * makes itself (no codec registered), and its codec is derived from the Death record.
     */
    static Simulation build(int workers, boolean populate, boolean eventCodec) {
        World world = new World(1024);
        Component<Hp> hp = world.component(Hp.class);
        Component<Tally> tally = world.component(Tally.class);
        if (populate) {
            world.entity().with(hp, new Hp(60)).spawnMany(2000);
        }
        Field hpv = hp.field("hp");
        SimulationBuilder builder = Simulation.builder(world).seed(7).workers(workers).hashEvery(1);
        if (eventCodec) {
            builder.events(DEATHS, DEATH_CODEC);
        }
        return builder
                .resource(MODE, new States<>(Mode.class, Mode.REST))
                .resource(STEP, new FixedTimestep(5, 3, 3))
                .systems(s -> s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE, Phase.POST_UPDATE).fixedTimestep(FIXED, STEP)
                        .system("tally").inPhase(Phase.PRE_UPDATE).readsEvents(DEATHS).spawns(tally)
                        .forEachRange(() -> 1, (job, from, to) -> {
                            EventReader<Death> deaths = job.events(DEATHS);
                            long h = deaths.size();
                            for (int i = 0; i < deaths.size(); i++) {
                                h = h * 31 + deaths.get(i).entity();
                            }
                            job.commands().add(job.commands().spawn(), tally, new Tally(h));
                        })
                        .system("wear").inPhase(FIXED).query(world.query().with(hp).build()).writes(hp)
                        .readsResource(Simulation.CLOCK, Simulation.RANDOM)
                        .forEachChunk(job -> {
                            long t = job.resource(Simulation.CLOCK).tick();
                            int[] h = job.chunk().writeInts(hpv);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                h[i] -= (int) (job.resource(Simulation.RANDOM).nextFloat(t, job.chunk().entity(i), 0) * 3);
                            }
                        })
                        .system("toggle").readsResource(Simulation.CLOCK).writesResource(MODE)
                        .forEachRange(() -> 1, (job, from, to) -> {
                            long t = job.resource(Simulation.CLOCK).tick();
                            if (t % 30 == 10 || t % 30 == 25) {
                                job.resourceForWrite(MODE).request(t % 30 == 10 ? Mode.FIGHT : Mode.REST);
                            }
                        })
                        .system("fight").runIf(RunCondition.inState(MODE, Mode.FIGHT))
                        .query(world.query().with(hp).build()).writes(hp)
                        .forEachChunk(job -> {
                            int[] h = job.chunk().writeInts(hpv);
                            for (int i = 0, n = job.chunk().size(); i < n; i += 3) {
                                h[i] -= 4;
                            }
                        })
                        .system("reinforce").onEnter(MODE, Mode.FIGHT).spawns(hp)
                        .forEachRange(() -> 25, (job, from, to) -> {
                            for (int i = from; i < to; i++) {
                                job.commands().add(job.commands().spawn(), hp, new Hp(40 + i));
                            }
                        })
                        .system("reap").inPhase(Phase.POST_UPDATE).query(world.query().with(hp).build()).reads(hp)
                        .despawns().writesEvents(DEATHS)
                        .forEachChunk(job -> {
                            int[] h = job.chunk().readInts(hpv);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                if (h[i] <= 0) {
                                    job.commands().despawn(job.chunk().entity(i));
                                    job.send(DEATHS, new Death(job.chunk().entity(i)));
                                }
                            }
                        }))
                .build();
    }

    @ParameterizedTest(name = "event codec registered: {0}")
    @ValueSource(booleans = {true, false})
    void shouldGoOnIdenticallyFromAMidRunSnapshot(boolean eventCodec) {
        long[] hashes = new long[TICKS];
        byte[] mid = null;
        int unreadAtSnapshot = 0;
        try (Simulation sim = build(2, true, eventCodec)) {
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
                hashes[t] = sim.lastHash();
                if (t == SNAP - 1) {
                    mid = sim.snapshot();
                    EventChannel<Death> deaths = sim.resources().get(SchedulerInternals.channelKey(DEATHS));
                    unreadAtSnapshot = deaths.size() - deaths.runStart();
                    assertEquals(Mode.REST, sim.resources().get(MODE).requested(), "a transition is pending");
                    assertTrue(sim.resources().get(STEP).accumulated() > 0, "a part step is accumulated");
                }
            }
        }
        assertTrue(unreadAtSnapshot > 0, "deaths of the last tick wait for the next tick's tally");
        for (int workers : new int[] {1, 4}) {
            long[] resumed = new long[TICKS];
            System.arraycopy(hashes, 0, resumed, 0, SNAP);
            try (Simulation sim = build(workers, false, eventCodec)) {
                sim.restore(mid);
                for (int t = SNAP; t < TICKS; t++) {
                    assertEquals(t, sim.tick());
                    resumed[t] = sim.lastHash();
                }
            }
            assertArrayEquals(hashes, resumed, "resumed on " + workers + " workers");
        }
    }

    /**
     * States x a restore x a recording: a run restored from the snapshot taken while a
     * transition was pending (requested in tick SNAP - 1, applied at the start of tick SNAP) and
     * recorded from there starts its recording with that pending transition, so the recording
     * replays bit for bit on 1 and 4 workers to the hash of the straight run.
     */
    @Test
    void aRecordingStartedFromARestoreWithATransitionPendingReplays(@TempDir Path dir) throws Exception {
        byte[] mid = null;
        long straightEnd;
        try (Simulation sim = build(1, true, true)) {
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
                if (t == SNAP - 1) {
                    mid = sim.snapshot();
                }
            }
            straightEnd = sim.lastHash();
        }
        try (Simulation sim = build(1, false, true)) {
            sim.restore(mid);
            assertEquals(Mode.REST, sim.resources().get(MODE).requested(), "the restored transition is pending");
            try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
                sim.run(TICKS - SNAP, 0, null);
            }
            assertEquals(straightEnd, sim.lastHash(), "the recorded run ends as the straight run");
        }
        for (int workers : new int[] {1, 4}) {
            try (Simulation fresh = build(workers, false, true)) {
                RunReplayer.Result r = RunReplayer.replay(dir, fresh);
                assertEquals(straightEnd, r.finalHash(), "replayed on " + workers + " workers");
                assertEquals(TICKS - SNAP, r.hashesChecked(), "every tick's hash checked");
                assertEquals(Mode.REST, fresh.resources().get(MODE).current(), "tick 115 requested REST: applied");
            }
        }
    }

    @Test
    void shouldReplayARecordingOnAnyWorkerCount(@TempDir Path dir) throws Exception {
        RecordedReplays.recordThenReplay(FlowSnapshotReplayTest::build, dir, TICKS, 1, 4);
    }

    /** An event type the simulation cannot write by itself: a class, not a record of plain values. */
    static final class Loot {
        final Object item;

        Loot(Object item) {
            this.item = item;
        }
    }

    @Test
    void shouldRefuseToSnapshotAnEventChannelItCannotCarryNamingTheCodecToAdd() {
        EventKey<Loot> loot = EventKey.of("loot", Loot.class);
        World world = new World(1024);
        try (Simulation sim = Simulation.builder(world)
                .systems(s -> s.system("drop").writesEvents(loot).forEachRange(() -> 1, (job, from, to) -> { })
                        .system("pick").after("drop").readsEvents(loot).forEachRange(() -> 1, (job, from, to) -> { }))
                .build()) {
            sim.tick();
            SnapshotException e = assertThrows(SnapshotException.class, sim::snapshot);
            assertTrue(e.getMessage().contains("event channel 'loot'") && e.getMessage().contains(Loot.class.getName())
                    && e.getMessage().contains("SimulationBuilder.events(key, codec), key being the channel's EventKey (named 'loot')"), e.getMessage());
        }
    }

    /** A record the simulation cannot write by itself either: one of its components is a list. */
    record Manifest(String ship, java.util.List<String> lines) {
    }

    /**
     * A record with a component no codec can be derived for (a list) was given a derived codec
     * all the same, with a hole where that component goes: snapshot() then failed inside it with
     * a NullPointerException naming an internal class, not the channel. It is refused as a class
     * is, naming the channel and the codec to register.
     */
    @Test
    void shouldRefuseToSnapshotARecordEventWithAComponentItCannotWriteNamingTheCodecToAdd() {
        EventKey<Manifest> manifests = EventKey.of("manifests", Manifest.class);
        World world = new World(1024);
        try (Simulation sim = Simulation.builder(world)
                .systems(s -> s.system("write").writesEvents(manifests).forEachRange(() -> 1, (job, from, to) ->
                                job.send(manifests, new Manifest("Ark", java.util.List.of("grain"))))
                        .system("read").readsEvents(manifests).forEachRange(() -> 1, (job, from, to) -> { }))
                .build()) {
            sim.tick();
            SnapshotException e = assertThrows(SnapshotException.class, sim::snapshot);
            assertTrue(e.getMessage().contains("event channel 'manifests'") && e.getMessage().contains(Manifest.class.getName())
                    && e.getMessage().contains("SimulationBuilder.events(key, codec), key being the channel's EventKey (named 'manifests')"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseANullEventCodecAtTheBuilderNotFailInsideTheSnapshot() {
        EventKey<Loot> loot = EventKey.of("loot", Loot.class);
        SimulationBuilder builder = Simulation.builder(new World(1024));
        NullPointerException e = assertThrows(NullPointerException.class, () -> builder.events(loot, null));
        assertTrue(e.getMessage() != null && e.getMessage().contains("SimulationBuilder.events")
                && e.getMessage().contains("'loot'") && e.getMessage().contains("ResourceCodec"), e.getMessage());
        NullPointerException k = assertThrows(NullPointerException.class, () -> builder.events(null, null));
        assertTrue(k.getMessage() != null && k.getMessage().contains("event key"), k.getMessage());
    }
}
