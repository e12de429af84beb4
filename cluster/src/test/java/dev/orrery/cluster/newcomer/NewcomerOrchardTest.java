package dev.orrery.cluster.newcomer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.ClusterNode;
import dev.orrery.cluster.NodeSettings;
import dev.orrery.cluster.WorldClient;
import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.cluster.world.WorldSettings;
import dev.orrery.cluster.world.WorldVerifier;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A newcomer's path through the cluster chapter of the book, with a world of their own: an
 * orchard of trees (table), fruit hanging from them ({@code ChildOf}), pests on some trees
 * (sparse), growth in a fixed-step phase and the harvest in a resource with a codec. Two
 * nodes in one JVM over one store directory, a {@link WorldClient} through both, the node
 * holding the world closed so the world moves, and then: the held world's state hash equals
 * that of one uninterrupted run of the same blueprint with the same inputs at their
 * acknowledged ticks, and {@link WorldVerifier} finds its journal sound.
 */
class NewcomerOrchardTest {
    record Tree(float height) {}
    record Fruit(int ripeness) {}
    record Pest(int bites) {}

    static final class Harvest {
        long picked;
    }

    static final ResourceKey<Harvest> HARVEST = ResourceKey.of("harvest", Harvest.class);
    static final ResourceCodec<Harvest> HARVEST_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Harvest h, DataOutput out) throws IOException {
            out.writeLong(h.picked);
        }

        @Override
        public Harvest read(DataInput in) throws IOException {
            Harvest h = new Harvest();
            h.picked = in.readLong();
            return h;
        }
    };
    static final ResourceKey<FixedTimestep> GROWTH_CLOCK = ResourceKey.of("growth clock", FixedTimestep.class);
    static final int PLANT = 1, PICK = 2, INFEST = 3;

    /** The orchard: the same on every node, alone or clustered. */
    static Simulation orchard(String worldId, boolean populate) {
        World world = new World();
        Component<Tree> tree = world.component(Tree.class);
        Component<Fruit> fruit = world.component(Fruit.class);
        Component<Pest> pest = world.component(Pest.class, Storage.SPARSE);
        Relation childOf = world.relations().childOf();
        Field height = tree.field("height"), ripeness = fruit.field("ripeness");
        if (populate) {
            for (int i = 0; i < 6; i++) {
                long t = world.spawn(new Tree(1 + i));
                for (int k = 0; k < 3; k++) {
                    world.relations().add(world.spawn(new Fruit(k)), childOf, t);
                }
            }
        }
        Query trees = world.query().with(tree).build();
        Query hanging = world.query().with(fruit, childOf.column()).build();
        Query infested = world.query().with(tree, pest).build();
        Phase growth = Phase.named("Growth");
        return Simulation.builder(world)
                .seed(worldId.hashCode())
                .onSystemFailure(FailurePolicy.SKIP_TICK)
                .resource(HARVEST, new Harvest(), HARVEST_CODEC)
                .resource(GROWTH_CLOCK, new FixedTimestep(3, 2, 4))          // a step every tick and a half
                .systems(s -> {
                    s.phases(Phase.PRE_UPDATE, growth, Phase.UPDATE, Phase.POST_UPDATE)
                            .fixedTimestep(growth, GROWTH_CLOCK);
                    s.system("orders").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.INPUTS)
                            .exclusive((w, job) -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.type(k) == PLANT) {
                                        long t = w.spawn(new Tree(in.payloadFloat(k, 0)));
                                        w.relations().add(w.spawn(new Fruit(0)), childOf, t);
                                    } else if (in.type(k) == INFEST) {
                                        float over = in.payloadFloat(k, 0);
                                        List<Long> victims = new ArrayList<>();
                                        trees.forEachChunk(c -> {
                                            float[] h = c.readFloats(height);
                                            for (int i = 0; i < c.size(); i++) {
                                                if (h[i] > over) victims.add(c.entity(i));
                                            }
                                        });
                                        for (long v : victims) {
                                            if (!w.has(v, pest)) w.add(v, pest, new Pest(0));
                                        }
                                    } else if (in.type(k) == PICK) {
                                        List<Long> ripe = new ArrayList<>();
                                        hanging.forEachChunk(c -> {
                                            int[] r = c.readInts(ripeness);
                                            for (int i = 0; i < c.size(); i++) {
                                                if (r[i] >= 5) ripe.add(c.entity(i));
                                            }
                                        });
                                        ripe.forEach(w::despawn);
                                        job.resourceForWrite(HARVEST).picked += ripe.size();
                                    }
                                }
                            });
                    s.system("grow").inPhase(growth).query(trees).writes(tree).forEachChunk(job -> {
                        float[] h = job.chunk().writeFloats(height);
                        for (int i = 0; i < job.chunk().size(); i++) h[i] += 0.25f;
                    });
                    s.system("ripen").inPhase(growth).query(hanging).writes(fruit).forEachChunk(job -> {
                        int[] r = job.chunk().writeInts(ripeness);
                        for (int i = 0; i < job.chunk().size(); i++) r[i]++;
                    });
                    s.system("pests").inPhase(Phase.UPDATE).exclusive(w -> infested.forEach((view, row) -> {
                        int bites = view.get(pest, row).bites() + 1;
                        view.set(pest, row, new Pest(bites));
                        view.set(tree, row, new Tree(view.get(tree, row).height() - 0.1f));
                    }));
                })
                .build();
    }

    @TempDir
    Path dir;

    /** How many trees have pests (a sparse column: counted row by row). */
    private static int pests(Simulation sim) {
        World world = sim.world();
        return world.query().with(world.component(Tree.class), world.component(Pest.class, Storage.SPARSE)).build()
                .count();
    }

    /** Sends one input, waits for its answer (so no two share a tick), and scripts it under the tick it applied in. */
    private static void send(WorldClient client, String worldId, int type, float value, Map<Long, List<int[]>> script,
            ConcurrentLinkedQueue<String> log) throws Exception {
        InputReply reply = client.send(worldId, 7, type, ByteBuffer.allocate(4).putFloat(value).array())
                .toCompletableFuture().get(3, TimeUnit.MINUTES);
        assertTrue(reply.accepted(), reply.describe() + "\n" + String.join("\n", log));
        script.computeIfAbsent(reply.tick(), t -> new ArrayList<>()).add(new int[] {type, Float.floatToIntBits(value)});
    }

    @Test
    void anOrchardMovesBetweenTwoNodesAndKeepsTheHashesOfOneUninterruptedRun() throws Exception {
        String worldId = "orchard-1";
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        // snippet:two-nodes
        WorldBlueprint blueprint = NewcomerOrchardTest::orchard;          // (worldId, populate) -> Simulation
        WorldSettings keepAll = WorldSettings.defaults().withKeepSnapshots(0);   // history from tick 0, to verify
        ClusterNode first = ClusterNode.start(NodeSettings.local(0, List.of()).withWorld(keepAll),   // 0: a free port
                new DirectoryWorldStore(dir), blueprint, log::add);       // no seeds: it starts the cluster
        first.awaitMembersUp(1, Duration.ofSeconds(30));
        ClusterNode second = ClusterNode.start(NodeSettings.local(0, List.of(first.hostPort())).withWorld(keepAll),
                new DirectoryWorldStore(dir), blueprint, log::add);       // the same store directory
        first.awaitMembersUp(2, Duration.ofSeconds(30));                  // formed: both see two members up
        second.awaitMembersUp(2, Duration.ofSeconds(30));
        // end:two-nodes
        Map<Long, List<int[]>> script = new TreeMap<>();   // each accepted input under its tick: {type, payload bits}
        try {
            // snippet:client
            List<ClusterNode> nodes = List.of(first, second);
            WorldClient.Route anyLiveNode = (world, clientId, seq, client, type, payload, timeout) -> {
                for (ClusterNode n : nodes) {
                    if (!n.isTerminated()) return n.submit(world, clientId, seq, client, type, payload, timeout);
                }
                return CompletableFuture.completedFuture(
                        InputReply.unknown(world, clientId, seq, -1, "no node is running"));
            };
            WorldClient client = new WorldClient(anyLiveNode,
                    Duration.ofSeconds(3),         // each attempt waits this long for an answer
                    Duration.ofMinutes(2),         // then sent again, same sequence, for up to this long
                    64);                           // at most this many unanswered per world
            InputReply reply = client.send(worldId, 7, PLANT, ByteBuffer.allocate(4).putFloat(2.5f).array())
                    .toCompletableFuture().get(3, TimeUnit.MINUTES);
            System.out.println(reply.describe());  // accepted at tick 12: applied in tick 12, durable
            // end:client
            assertTrue(reply.accepted(), reply.describe() + "\n" + String.join("\n", log));
            script.computeIfAbsent(reply.tick(), t -> new ArrayList<>())
                    .add(new int[] {PLANT, Float.floatToIntBits(2.5f)});
            int[] types = {PLANT, PICK, INFEST, PLANT, PICK, PLANT, INFEST, PICK};
            float[] values = {2.5f, 0, 4.0f, 0.5f, 0, 7.0f, 3.0f, 0};
            for (int i = 1; i < types.length; i++) {   // half of them, then the world moves, then the rest
                send(client, worldId, types[i], values[i] + i, script, log);
            }
            // snippet:move
            WorldStatus where = first.status(worldId, Duration.ofSeconds(10)).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            ClusterNode holder = where.node().equals(first.address()) ? first : second;   // pekko://orrery@host:port
            ClusterNode survivor = holder == first ? second : first;
            holder.close();                // leaves: the world moves with a snapshot, nothing to replay
            // end:move
            assertTrue(holder.isTerminated());
            for (int i = types.length; i < 2 * types.length; i++) {
                send(client, worldId, types[i % types.length], values[i % types.length] + i, script, log);
            }
            client.close();
            // snippet:compare
            WorldStatus held = survivor.hold(worldId, true, Duration.ofSeconds(10)).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);    // stopped after tick held.tick() - 1; it runs that tick next
            InputPipeline inputs = InputPipeline.builder().build();
            try (Simulation straight = orchard(worldId, true)) {
                straight.inputs(inputs);
                for (long t = 0; t < held.tick(); t++) {
                    for (int[] in : script.getOrDefault(t, List.of())) {     // each input at its acknowledged tick
                        byte[] payload = ByteBuffer.allocate(4).putInt(in[1]).array();
                        inputs.tryPublish(7, in[0], payload, 0, payload.length);
                    }
                    straight.tick();
                }
                assertEquals(straight.world().stateHash(), held.stateHash());
                assertEquals(survivor.address(), held.node());            // it moved to the node still up
                assertNotEquals(0, straight.resources().get(HARVEST).picked);   // fruit was picked,
                assertNotEquals(0, pests(straight));                              // and pests are about
            }
            inputs.close();
            // end:compare
        } finally {
            second.close();
            first.close();
        }
        // snippet:verify
        WorldVerifier.Report report = WorldVerifier.verify(new DirectoryWorldStore(dir), worldId, blueprint);
        assertTrue(report.ok(), report.describe());   // every journaled hash and snapshot, replayed from the store
        // end:verify
        assertEquals(-1, report.fromSnapshot(), report.describe());      // from tick 0: every snapshot was kept
        assertEquals(0, report.duplicateInputs());
        assertTrue(report.hashesChecked() > 0, report.describe());
    }
}
