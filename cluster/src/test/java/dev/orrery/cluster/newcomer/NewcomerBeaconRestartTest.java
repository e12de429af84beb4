package dev.orrery.cluster.newcomer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.ClusterNode;
import dev.orrery.cluster.NodeSettings;
import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.cluster.world.WorldSettings;
import dev.orrery.cluster.world.WorldVerifier;
import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A newcomer's world built from the change chapter (per-row tracking, a change filter, an
 * {@code onRemove} hook with the value recording a spawn, a removal log read by an exclusive
 * system into a resource with a codec), run as the cluster chapter says: one node; inputs
 * answered {@code accepted at} a tick; the world held and compared with a straight run; the
 * node closed, which hands the world off with a snapshot; a new node started on the same store
 * reopens it from that snapshot with nothing to replay; a retry of an input applied before the
 * restart gets the same answer; new inputs apply; the held state equals one straight run with
 * every input at its acknowledged tick; and the verifier finds the journal sound.
 */
class NewcomerBeaconRestartTest {
    record Flame(int heat) {}
    record Ash(int heat) {}

    static final class Fuel {
        int units;
    }

    static final ResourceKey<Fuel> FUEL = ResourceKey.of("fuel", Fuel.class);
    static final ResourceKey<LongSum> SWEPT = ResourceKey.of("swept", LongSum.class);
    static final int FEED = 1;

    static final ResourceCodec<Fuel> FUEL_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Fuel f, DataOutput out) throws IOException {
            out.writeInt(f.units);
        }

        @Override
        public Fuel read(DataInput in) throws IOException {
            Fuel f = new Fuel();
            f.units = in.readInt();
            return f;
        }
    };

    static final ResourceCodec<LongSum> SUM = new ResourceCodec<>() {
        @Override
        public void write(LongSum s, DataOutput out) throws IOException {
            out.writeLong(s.total());
        }

        @Override
        public LongSum read(DataInput in) throws IOException {
            return new LongSum(in.readLong());
        }
    };

    /** The blueprint: the same world every call, one worker. */
    static Simulation beacon(String worldId, boolean populate) {
        World world = new World();
        Component<Flame> flame = world.component(Flame.class);
        Component<Ash> ash = world.component(Ash.class);
        Field heat = flame.field("heat");
        world.trackRowChanges(flame);
        world.trackRemoved(flame);
        world.observe(flame).onRemove((w, e, last, commands) -> {
            long a = commands.spawn();                       // the flame is out; its heat is not
            commands.add(a, ash, new Ash(last.heat()));
        });
        if (populate) {
            for (int i = 0; i < 500; i++) world.spawn(new Flame(i % 40));
        }
        Query all = world.query().with(flame).build();
        Query hotter = world.query().with(flame).changed(flame).build();
        return Simulation.builder(world).seed(worldId.hashCode()).onSystemFailure(FailurePolicy.SKIP_TICK)
                .resource(FUEL, new Fuel(), FUEL_CODEC)
                .resource(SWEPT, new LongSum(), SUM)
                .systems(s -> {
                    s.system("feed").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.INPUTS).writesResource(FUEL)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                byte[] p = new byte[4];
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.type(k) != FEED) continue;
                                    in.copyPayload(k, p, 0);
                                    job.resourceForWrite(FUEL).units += ByteBuffer.wrap(p).getInt();
                                }
                            });
                    s.system("burn").query(all).readsResource(FUEL, Simulation.CLOCK).writes(flame).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        long tick = job.resource(Simulation.CLOCK).tick();
                        int fuel = job.resource(FUEL).units;
                        long[] ids = c.entities();
                        c.markRows(flame);
                        int[] h = c.writeInts(heat);
                        for (int i = 0, n = c.size(); i < n; i++) {
                            if ((ids[i] + tick) % 5 == 0) {
                                h[i] += 3 + fuel % 7;
                                c.markChanged(flame, i);
                            }
                        }
                    });
                    s.system("douse").after("burn").query(hotter).reads(flame).despawns().forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        int[] h = c.readInts(heat);
                        long[] ids = c.entities();
                        for (int i = c.firstChanged(flame); i >= 0; i = c.nextChanged(i + 1)) {
                            if (h[i] >= 45) job.commands().despawn(ids[i]);
                        }
                    });
                    s.system("sweep").inPhase(Phase.POST_UPDATE).reads(flame).exclusive((w, job) -> {
                        RemovedEntities gone = job.removed(flame);
                        job.resourceForWrite(SWEPT).set(job.resource(SWEPT).total() + gone.count()
                                + (gone.missed() ? 1_000_000 : 0));
                    });
                })
                .build();
    }

    static InputReply feed(ClusterNode node, String worldId, long clientId, long seq, int units) throws Exception {
        for (int attempt = 0; attempt < 60; attempt++) {
            InputReply r = node.submit(worldId, clientId, seq, 7, FEED, ByteBuffer.allocate(4).putInt(units).array(),
                    Duration.ofSeconds(5)).toCompletableFuture().get(1, TimeUnit.MINUTES);
            if (!r.unknown()) return r;                       // unknown: send it again, same sequence
        }
        throw new AssertionError("input " + seq + " never answered");
    }

    static WorldStatus hold(ClusterNode node, String worldId, boolean hold) throws Exception {
        return node.hold(worldId, hold, Duration.ofSeconds(10)).toCompletableFuture().get(1, TimeUnit.MINUTES);
    }

    /** A straight run of the blueprint to {@code ticks}, each input at its acknowledged tick. */
    static Simulation straight(String worldId, Map<Long, List<Integer>> script, long ticks) {
        InputPipeline inputs = InputPipeline.builder().build();
        Simulation sim = beacon(worldId, true);
        sim.inputs(inputs);
        for (long t = 0; t < ticks; t++) {
            for (int units : script.getOrDefault(t, List.of())) {
                byte[] p = ByteBuffer.allocate(4).putInt(units).array();
                inputs.tryPublish(7, FEED, p, 0, p.length);
            }
            sim.tick();
        }
        inputs.close();
        return sim;
    }

    @Test
    void theLastNodeHandsItsWorldOffAndANewNodeOnTheStoreGoesOnAsOneStraightRun(@TempDir Path dir) throws Exception {
        String worldId = "beacon-1";
        WorldBlueprint blueprint = NewcomerBeaconRestartTest::beacon;
        WorldSettings keepAll = WorldSettings.defaults().withKeepSnapshots(0);
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        Map<Long, List<Integer>> script = new TreeMap<>();
        long clientId = ClusterNode.newClientId();
        InputReply second;
        ClusterNode first = ClusterNode.start(NodeSettings.local(0, List.of()).withWorld(keepAll),
                new DirectoryWorldStore(dir), blueprint, log::add);
        try {
            first.awaitMembersUp(1, Duration.ofSeconds(30));
            InputReply[] replies = new InputReply[4];
            for (int seq = 1; seq <= 4; seq++) {
                replies[seq - 1] = feed(first, worldId, clientId, seq, seq * 2);
                assertTrue(replies[seq - 1].accepted(), replies[seq - 1].describe());
                script.computeIfAbsent(replies[seq - 1].tick(), t -> new java.util.ArrayList<>()).add(seq * 2);
            }
            second = replies[1];
            WorldStatus held = hold(first, worldId, true);
            try (Simulation s = straight(worldId, script, held.tick())) {
                assertEquals(s.world().stateHash(), held.stateHash(), "held at tick " + held.tick());
            }
            hold(first, worldId, false);
        } finally {
            first.close();                                // the last node: hands its world off with a snapshot
        }
        ClusterNode next = ClusterNode.start(NodeSettings.local(0, List.of()).withWorld(keepAll),
                new DirectoryWorldStore(dir), blueprint, log::add);
        try {
            next.awaitMembersUp(1, Duration.ofSeconds(30));
            InputReply again = feed(next, worldId, clientId, 2, 4);   // a retry from before the restart
            assertEquals(second.describe(), again.describe(), "the same answer after the restart");
            for (int seq = 5; seq <= 7; seq++) {
                InputReply r = feed(next, worldId, clientId, seq, seq * 2);
                assertTrue(r.accepted(), r.describe());
                script.computeIfAbsent(r.tick(), t -> new java.util.ArrayList<>()).add(seq * 2);
            }
            WorldStatus held = hold(next, worldId, true);
            assertEquals(0, held.ticksReplayed(), "reopened from the hand-off snapshot: " + held);
            assertTrue(log.stream().anyMatch(l -> l.contains("world " + worldId + " handed off from here")), String.join("\n", log));
            try (Simulation s = straight(worldId, script, held.tick())) {
                assertEquals(s.world().stateHash(), held.stateHash(), "held at tick " + held.tick());
                assertTrue(s.resources().get(SWEPT).total() > 0 && s.resources().get(SWEPT).total() < 1_000_000,
                        "every doused flame swept once: " + s.resources().get(SWEPT));
            }
            assertTrue(log.stream().anyMatch(l -> l.contains("world " + worldId + " restored here")), String.join("\n", log));
        } finally {
            next.close();
        }
        WorldVerifier.Report report = WorldVerifier.verify(new DirectoryWorldStore(dir), worldId, blueprint);
        assertTrue(report.ok(), report.describe());
    }
}
