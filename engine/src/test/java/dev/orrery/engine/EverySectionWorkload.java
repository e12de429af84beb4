package dev.orrery.engine;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.ReferenceCodec;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.States;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Test support: a small simulation whose snapshot carries every section a snapshot can hold
 * (table and sparse columns, a reference column through a codec, per-row change versions and
 * a removal log, two relations with pairs, an event channel with events alive and a reader's
 * position, a state machine with a transition requested, a fixed timestep part-way through a
 * step, a user resource through its codec), and a framing helper for tests that hand the
 * reader a payload that is wrong in a chosen way while the file's checksum is right.
 */
final class EverySectionWorkload {
    record Hp(int hp) {
    }

    record Burning(float dps) {
    }

    record Death(long entity, int hp) {
    }

    enum Mode { REST, FIGHT }

    /** A user resource carried through its own codec. */
    static final class Score {
        long points;
    }

    static final Phase FIXED = Phase.named("EverySectionFixed");
    static final EventKey<Death> DEATHS = EventKey.of("everySectionDeaths", Death.class);
    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("step", FixedTimestep.class);
    static final ResourceKey<Score> SCORE = ResourceKey.of("score", Score.class);
    /** Ticks run before the seed snapshot: deaths are alive, a transition requested, a step part-way. */
    static final int TICKS = 7;

    static final ReferenceCodec<String> NAMES = new ReferenceCodec<>() {
        @Override
        public void write(String value, DataOutput out) throws IOException {
            out.writeUTF(value);
        }

        @Override
        public String read(DataInput in) throws IOException {
            return in.readUTF();
        }
    };

    static final ResourceCodec<Score> SCORES = new ResourceCodec<>() {
        @Override
        public void write(Score value, DataOutput out) throws IOException {
            out.writeLong(value.points);
        }

        @Override
        public Score read(DataInput in) throws IOException {
            Score s = new Score();
            s.points = in.readLong();
            return s;
        }
    };

    private EverySectionWorkload() {
    }

    /** The simulation; {@code populate} spawns its entities and pairs (a restore target does not). */
    static Simulation build(boolean populate) {
        World world = new World(1024);
        Component<Hp> hp = world.component(Hp.class);
        Component<Burning> burning = world.component(Burning.class, Storage.SPARSE);
        Component<String> name = world.referenceComponent(String.class, "Name");
        world.trackRowChanges(hp);
        world.trackRemoved(hp);
        Relation childOf = world.relations().childOf();
        Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        if (populate) {
            long[] ids = new long[12];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = world.spawn(new Hp(3 + i % 5));
                if (i % 3 == 0) {
                    world.add(ids[i], burning, new Burning(i / 2f));
                }
                if (i % 4 == 0) {
                    world.add(ids[i], name, "agent " + i);
                }
            }
            for (int i = 1; i < 6; i++) {
                world.relations().add(ids[i], childOf, ids[0]);
                world.relations().add(ids[i], likes, ids[(i + 3) % ids.length]);
            }
        }
        Field hpv = hp.field("hp");
        return Simulation.builder(world).seed(11).workers(1).hashEvery(1)
                .referenceCodec(String.class, NAMES)
                .resource(SCORE, new Score(), SCORES)
                .resource(MODE, new States<>(Mode.class, Mode.REST))
                .resource(STEP, new FixedTimestep(5, 3, 3))
                .systems(s -> s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE, Phase.POST_UPDATE)
                        .fixedTimestep(FIXED, STEP)
                        .system("tally").inPhase(Phase.PRE_UPDATE).readsEvents(DEATHS).writesResource(SCORE)
                        .exclusive((w, job) -> {
                            EventReader<Death> deaths = job.events(DEATHS);
                            Score score = job.resourceForWrite(SCORE); // through the job: a restore puts a new Score
                            for (int i = 0; i < deaths.size(); i++) {
                                score.points += deaths.get(i).hp() + 1;
                            }
                        })
                        .system("wear").inPhase(FIXED).query(world.query().with(hp).build()).writes(hp)
                        .forEachChunk(job -> {
                            int[] h = job.chunk().writeInts(hpv);
                            for (int i = 0, n = job.chunk().size(); i < n; i += 2) {
                                h[i] -= 1;
                            }
                        })
                        .system("toggle").readsResource(Simulation.CLOCK).writesResource(MODE)
                        .forEachRange(() -> 1, (job, from, to) -> {
                            if (job.resource(Simulation.CLOCK).tick() % 4 == 2) {
                                job.resourceForWrite(MODE).request(Mode.FIGHT);
                            }
                        })
                        .system("reap").inPhase(Phase.POST_UPDATE).query(world.query().with(hp).build()).reads(hp)
                        .despawns().writesEvents(DEATHS)
                        .forEachChunk(job -> {
                            int[] h = job.chunk().readInts(hpv);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                if (h[i] <= 0) {
                                    job.commands().despawn(job.chunk().entity(i));
                                    job.send(DEATHS, new Death(job.chunk().entity(i), h[i]));
                                }
                            }
                        }))
                .build();
    }

    /** The seed: the simulation's snapshot after {@value #TICKS} ticks. */
    static byte[] seed() {
        try (Simulation sim = build(true)) {
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
            }
            return sim.snapshot();
        }
    }

    /** The payload of a snapshot: what lies between its 20-byte header and its 4-byte checksum. */
    static byte[] payload(byte[] snapshot) {
        return java.util.Arrays.copyOfRange(snapshot, 20, snapshot.length - 4);
    }

    /** A snapshot file around {@code payload}: magic, format version 2, length, payload, CRC32C. */
    static byte[] frame(byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(payload.length + 24);
        b.put(dev.orrery.ecs.WorldSnapshot.MAGIC).putInt(2).putLong(payload.length).put(payload);
        CRC32C crc = new CRC32C();
        crc.update(payload);
        b.putInt((int) crc.getValue());
        return b.array();
    }

    /**
     * The payload's extra sections as (name, offset of the section's first byte in the
     * payload, length), in order, read the way the writer writes them.
     */
    static java.util.Map<String, int[]> sections(byte[] payload) {
        ByteBuffer b = ByteBuffer.wrap(payload);
        int n = b.getInt();
        java.util.Map<String, int[]> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            byte[] name = new byte[b.getShort() & 0xFFFF];
            b.get(name);
            int length = b.getInt();
            out.put(new String(name, java.nio.charset.StandardCharsets.UTF_8), new int[] {b.position(), length});
            b.position(b.position() + length);
        }
        return out;
    }

    /** The snapshot with section {@code name} replaced by {@code bytes} (other sections and the world as they were). */
    static byte[] withSection(byte[] snapshot, String name, byte[] bytes) {
        byte[] payload = payload(snapshot);
        java.util.Map<String, int[]> sections = sections(payload);
        int end = 4;
        for (int[] s : sections.values()) {
            end = Math.max(end, s[0] + s[1]);
        }
        try {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(body);
            out.writeInt(sections.size());
            for (java.util.Map.Entry<String, int[]> e : sections.entrySet()) {
                out.writeUTF(e.getKey());
                byte[] data = e.getKey().equals(name) ? bytes
                        : java.util.Arrays.copyOfRange(payload, e.getValue()[0], e.getValue()[0] + e.getValue()[1]);
                out.writeInt(data.length);
                out.write(data);
            }
            out.write(payload, end, payload.length - end);
            out.flush();
            return frame(body.toByteArray());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The bytes of section {@code name} of {@code snapshot}. */
    static byte[] section(byte[] snapshot, String name) {
        byte[] payload = payload(snapshot);
        int[] s = sections(payload).get(name);
        return java.util.Arrays.copyOfRange(payload, s[0], s[0] + s[1]);
    }
}
