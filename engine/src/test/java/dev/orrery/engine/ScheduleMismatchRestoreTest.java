package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.WorldSnapshot;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A snapshot carries state per system, by the system's name: its last-run tick (what a
 * {@code changed} or {@code added} filter compares against) and its position in every event
 * channel it reads. Restored into a simulation whose schedule names its systems otherwise, that
 * state found no system: a renamed {@code changed}-filtered system saw every chunk again and a
 * renamed event reader read the channel's events again, and the restored run diverged from the
 * uninterrupted one without a word. A restore now refuses a snapshot whose systems are not this
 * simulation's, naming those missing and those extra; a snapshot from before the systems were
 * written restores as before.
 */
class ScheduleMismatchRestoreTest {
    record Hp(int hp) {
    }

    record Seen(int count) {
    }

    record Ping(int value) {
    }

    static final EventKey<Ping> PINGS = EventKey.of("pings", Ping.class);

    /**
     * "hurt" writes hp of half the entities every third tick, {@code watch} counts in Seen the
     * rows whose hp changed since it last ran, "ping" sends an event a tick and {@code listen}
     * adds the events it reads to every Seen; {@code extra} adds one more system.
     */
    static Simulation build(boolean populate, String watch, String listen, boolean extra) {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        Component<Seen> seen = world.component(Seen.class);
        Field hpv = hp.field("hp");
        Field seenv = seen.field("count");
        if (populate) {
            world.entity().with(hp, new Hp(100)).with(seen, new Seen(0)).spawnMany(600);
        }
        return Simulation.builder(world).seed(5).hashEvery(1)
                .systems(s -> {
                    s.system("hurt").query(world.query().with(hp).build()).writes(hp)
                            .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                                if (job.resource(Simulation.CLOCK).tick() % 3 == 0 && job.chunkOrdinal() % 2 == 0) {
                                    int[] h = job.chunk().writeInts(hpv);
                                    for (int i = 0; i < job.chunk().size(); i++) {
                                        h[i]--;
                                    }
                                }
                            })
                            .system(watch).after("hurt").query(world.query().changed(hp).with(seen).build())
                            .reads(hp).writes(seen).forEachChunk(job -> {
                                int[] n = job.chunk().writeInts(seenv);
                                for (int i = 0; i < job.chunk().size(); i++) {
                                    n[i]++;
                                }
                            })
                            .system("ping").writesEvents(PINGS).readsResource(Simulation.CLOCK)
                            .forEachRange(() -> 1, (job, from, to) ->
                                    job.send(PINGS, new Ping((int) job.resource(Simulation.CLOCK).tick())))
                            .system(listen).after(watch).readsEvents(PINGS).query(world.query().with(seen).build())
                            .writes(seen).forEachChunk(job -> {
                                EventReader<Ping> pings = job.events(PINGS);
                                int add = 0;
                                for (int i = 0; i < pings.size(); i++) {
                                    add += pings.get(i).value();
                                }
                                int[] n = job.chunk().writeInts(seenv);
                                for (int i = 0; i < job.chunk().size(); i++) {
                                    n[i] += add;
                                }
                            });
                    if (extra) {
                        s.system("idle").forEachRange(() -> 1, (job, from, to) -> { });
                    }
                })
                .build();
    }

    static Simulation original(boolean populate) {
        return build(populate, "watch", "listen", false);
    }

    /** The snapshot of the original at tick 6 ([0]) and the hash of the uninterrupted run at tick 12 ([1]). */
    private static Object[] midRun() {
        try (Simulation sim = original(true)) {
            sim.run(6, 0);
            byte[] snapshot = sim.snapshot();
            sim.run(6, 0);
            return new Object[] {snapshot, sim.world().stateHash()};
        }
    }

    @Test
    void shouldGoOnIdenticallyIntoTheSameSchedule() {
        Object[] mid = midRun();
        try (Simulation again = original(false)) {
            again.restore((byte[]) mid[0]);
            again.run(6, 0);
            assertEquals((long) mid[1], again.world().stateHash(), "the same systems go on as the uninterrupted run");
        }
    }

    @Test
    void shouldRefuseASnapshotWhoseChangedFilteredSystemIsRenamedHere() {
        byte[] snapshot = (byte[]) midRun()[0];
        try (Simulation renamed = build(false, "look", "listen", false)) {
            SnapshotException e = assertThrows(SnapshotException.class, () -> renamed.restore(snapshot),
                    "restored, 'look' would see every chunk as changed and the run diverge without a word");
            String m = e.getMessage();
            assertTrue(m.contains("orrery.systems"), m);
            assertTrue(m.contains("'watch'") && m.contains("'look'"), m);
            assertTrue(m.contains("has no system 'watch'") || m.contains("systems 'watch'"), m);
            assertTrue(m.contains("same systems as the one that took it"), m);
            assertEquals(0, renamed.world().entityCount(), "a refused snapshot places nothing");
            assertEquals(0, renamed.currentTick());
        }
    }

    @Test
    void shouldRefuseASnapshotWhoseEventReaderIsRenamedHere() {
        byte[] snapshot = (byte[]) midRun()[0];
        try (Simulation renamed = build(false, "watch", "hear", false)) {
            SnapshotException e = assertThrows(SnapshotException.class, () -> renamed.restore(snapshot));
            assertTrue(e.getMessage().contains("'listen'") && e.getMessage().contains("'hear'"), e.getMessage());
            assertTrue(e.getMessage().contains("event"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseASystemTheSnapshotDoesNotHaveAndOneItHasThatThisSimulationLacks() {
        byte[] snapshot = (byte[]) midRun()[0];
        try (Simulation more = build(false, "watch", "listen", true)) {
            SnapshotException e = assertThrows(SnapshotException.class, () -> more.restore(snapshot));
            assertTrue(e.getMessage().contains("'idle'"), e.getMessage());
            assertTrue(e.getMessage().contains("the snapshot has no system 'idle'"), e.getMessage());
        }
        byte[] withIdle;
        try (Simulation more = build(true, "watch", "listen", true)) {
            more.run(2, 0);
            withIdle = more.snapshot();
        }
        try (Simulation fewer = original(false)) {
            SnapshotException e = assertThrows(SnapshotException.class, () -> fewer.restore(withIdle));
            assertTrue(e.getMessage().contains("this simulation has no system 'idle'"), e.getMessage());
            fewer.restore((byte[]) midRun()[0]); // still new: the right snapshot goes in after
            assertEquals(6, fewer.currentTick());
        }
    }

    @Test
    void shouldRestoreASnapshotWrittenBeforeTheSystemsWereAsBefore() {
        Object[] mid = midRun();
        byte[] old = withoutSystemsSection((byte[]) mid[0]);
        try (Simulation again = original(false)) {
            again.restore(old);
            again.run(6, 0);
            assertEquals((long) mid[1], again.world().stateHash());
        }
        // unchecked, as before: a renamed system then diverges, which the recorded hashes of a replay catch
        try (Simulation renamed = build(false, "look", "listen", false)) {
            renamed.restore(old);
            renamed.run(6, 0);
            assertNotEquals((long) mid[1], renamed.world().stateHash(),
                    "'look' finds no last-run tick in the snapshot and sees every chunk as changed");
        }
        try (Simulation renamed = build(false, "watch", "hear", false)) {
            renamed.restore(old);
            renamed.run(6, 0);
            assertNotEquals((long) mid[1], renamed.world().stateHash(),
                    "'hear' finds no position in the channel and reads the events 'listen' had read again");
        }
    }

    @Test
    void shouldRefuseASystemsSectionThatDoesNotParseNamingTheOffset() {
        byte[] snapshot = (byte[]) midRun()[0];
        byte[] twice = withSystemsSection(snapshot, SystemsSection.write(java.util.List.of("hurt", "watch", "hurt")));
        byte[] huge = withSystemsSection(snapshot, new byte[] {0x7f, 0, 0, 0, 0, 1, 'a'});
        try (Simulation sim = original(false)) {
            SnapshotException t = assertThrows(SnapshotException.class, () -> sim.restore(twice));
            assertTrue(t.getMessage().contains("orrery.systems") && t.getMessage().contains("'hurt' is named twice"),
                    t.getMessage());
            SnapshotException h = assertThrows(SnapshotException.class, () -> sim.restore(huge));
            assertTrue(h.getMessage().contains("orrery.systems"), h.getMessage());
            assertEquals(0, sim.world().entityCount());
            sim.restore(snapshot);
            assertEquals(6, sim.currentTick());
        }
    }

    /** {@code snapshot} as a build before the systems section wrote it: the same world and the other sections. */
    private static byte[] withoutSystemsSection(byte[] snapshot) {
        return withSystemsSection(snapshot, null);
    }

    /** {@code snapshot} with {@code section} (null: none) for its systems section. */
    private static byte[] withSystemsSection(byte[] snapshot, byte[] section) {
        WorldSnapshot format = new WorldSnapshot();
        Map<String, byte[]> extras = new LinkedHashMap<>(format.readExtras(snapshot));
        extras.remove("orrery.systems");
        if (section != null) {
            extras.put("orrery.systems", section);
        }
        try (Simulation carrier = original(false)) {
            carrier.restore(snapshot);
            return format.write(carrier.world(), extras);
        }
    }
}
