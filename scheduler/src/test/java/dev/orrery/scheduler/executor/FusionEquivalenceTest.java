package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.internal.SchedulerInternals;
import org.junit.jupiter.api.Test;

/**
 * Chunk pipelines change no result where fusion meets other features: per-row and chunk
 * change tests on a column an earlier member writes in the same tick, sparse columns, command
 * buffers of several members (despawns, spawns, adds, removes), events sent by a member and
 * read next phase, a fixed-step phase, and a member that throws on some chunks under finish
 * mode (what {@code SKIP_TICK} uses). Each tick's state hash, the events' order and the
 * failure reported are the same on 1 worker, on 2 and 3 workers unfused
 * ({@code -Dorrery.chunkPipelines=false}) and fused.
 */
class FusionEquivalenceTest {
    record Pos(float x) {
    }

    record Vel(float v) {
    }

    record Hp(int hp) {
    }

    record Mark(int m) {
    }

    record Hit(long e, int n) {
    }

    static final EventKey<Hit> HITS = EventKey.of("hits", Hit.class);
    static final ResourceKey<long[]> SEEN = ResourceKey.of("seen", long[].class);
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("step", FixedTimestep.class);
    static final Phase FIXED = Phase.named("Fixed");

    static long mix(long h, long v) {
        return (h ^ v) * 0x9E3779B97F4A7C15L + 7;
    }

    static final class W {
        final World world = new World(256);
        final Component<Pos> pos = world.component(Pos.class);
        final Component<Vel> vel = world.component(Vel.class);
        final Component<Hp> hp = world.component(Hp.class);
        final Component<Mark> mark = world.component(Mark.class, Storage.SPARSE);
        final Field x = pos.field("x");
        final Field v = vel.field("v");
        final Field h = hp.field("hp");
        final Field m = mark.field("m");
        final Query all;
        final long[] seen = new long[1];
        int tick;
        boolean fail;

        W() {
            world.trackRowChanges(hp);
            for (int i = 0; i < 5000; i++) {
                long e = world.spawn(new Pos(i), new Vel(i % 7), new Hp(3 + i % 50));
                if (i % 3 == 0) {
                    world.add(e, mark, new Mark(i));
                }
            }
            all = world.query().with(pos, vel, hp).build();
        }

        Schedule schedule() {
            return Schedule.builder(world).minBatchRows(64).resource(SEEN, seen)
                    .resource(STEP, new FixedTimestep(10, 25, 4))
                    .phases(Phase.PRE_UPDATE, Phase.UPDATE, FIXED, Phase.POST_UPDATE).fixedTimestep(FIXED, STEP)
                    .system("poke").query(all).writes(hp).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        c.markRows(hp);
                        int[] hh = c.writeInts(h);
                        for (int i = 0; i < c.size(); i++) {
                            if ((c.entity(i) * 31 + tick) % 7 == 0) {
                                hh[i] -= 1;
                                c.markChanged(hp, i);
                            }
                        }
                    })
                    .system("react").query(all).reads(hp).writes(vel).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        float[] vv = c.writeFloats(v);
                        if (c.changed(hp)) {
                            vv[0] += 0.5f;
                        }
                        for (int i = c.firstChanged(hp); i >= 0; i = c.nextChanged(i + 1)) {
                            vv[i] += 1;
                        }
                        for (int i = 0; i < c.size(); i++) {
                            if (c.changed(hp, i)) {
                                vv[i] += 0.25f;
                            }
                        }
                    })
                    .system("sparse").query(all).reads(vel).writes(mark).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        float[] vv = c.readFloats(v);
                        for (int i = 0; i < c.size(); i++) {
                            if (c.has(mark, i)) {
                                c.set(mark, i, new Mark(c.get(mark, i).m() + (int) vv[i]));
                            }
                        }
                    })
                    .system("cmd").query(all).reads(mark, hp, vel).despawns().spawns(pos, vel, hp)
                    .adds(mark).removes(mark).writesEvents(HITS).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        int[] hh = c.readInts(h);
                        for (int i = 0; i < c.size(); i++) {
                            long e = c.entity(i);
                            if (hh[i] <= 0) {
                                job.commands().despawn(e);
                                long b = job.commands().spawn();
                                job.commands().add(b, pos, new Pos(i));
                                job.commands().add(b, vel, new Vel(1));
                                job.commands().add(b, hp, new Hp(40 + i % 9));
                                job.send(HITS, new Hit(e, i));
                            } else if (c.has(mark, i) && c.get(mark, i).m() % 5 == 0) {
                                job.commands().remove(e, mark);
                                job.send(HITS, new Hit(e, -i));
                            } else if (!c.has(mark, i) && (e + tick) % 11 == 0) {
                                job.commands().add(e, mark, new Mark(tick));
                            }
                        }
                    })
                    .system("thrower").query(all).reads(hp).writes(pos).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        float[] xx = c.writeFloats(x);
                        for (int i = 0; i < c.size(); i++) {
                            xx[i] += 1;
                            if (fail && i == 3 && job.chunkOrdinal() % 4 == 1) {
                                throw new IllegalStateException("boom " + job.chunkOrdinal());
                            }
                        }
                    })
                    .system("after").query(all).reads(pos).writes(hp).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        int[] hh = c.writeInts(h);
                        float[] xx = c.readFloats(x);
                        for (int i = 0; i < c.size(); i++) {
                            hh[i] += ((int) xx[i]) % 2;
                            if (fail && i == 5 && job.chunkOrdinal() % 4 == 2) { // a member fails too
                                throw new IllegalStateException("bang " + job.chunkOrdinal());
                            }
                        }
                    })
                    .system("fa").inPhase(FIXED).query(all).writes(pos).reads(vel).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        float[] xx = c.writeFloats(x);
                        float[] vv = c.readFloats(v);
                        for (int i = 0; i < c.size(); i++) {
                            xx[i] += vv[i] * 0.1f;
                        }
                    })
                    .system("fb").inPhase(FIXED).query(all).reads(pos).writes(vel).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        float[] xx = c.readFloats(x);
                        float[] vv = c.writeFloats(v);
                        for (int i = 0; i < c.size(); i++) {
                            vv[i] = c.changed(pos) ? (xx[i] % 3) : vv[i];
                        }
                    })
                    .system("tally").inPhase(Phase.POST_UPDATE).readsEvents(HITS).writesResource(SEEN)
                    .exclusive((w, job) -> {
                        EventReader<Hit> r = job.events(HITS);
                        long s = job.resourceForWrite(SEEN)[0];
                        for (int i = 0; i < r.size(); i++) {
                            s = mix(s, r.get(i).e() * 131 + r.get(i).n());
                        }
                        job.resourceForWrite(SEEN)[0] = s;
                    })
                    .build();
        }
    }

    static long[] run(int workers, boolean fused, boolean finish, boolean fail) {
        W w = new W();
        w.fail = fail;
        String old = System.getProperty(ChunkPipelines.PROPERTY);
        System.setProperty(ChunkPipelines.PROPERTY, Boolean.toString(fused));
        long[] out = new long[40];
        try (ScheduleExecutor e = workers == 1 ? new SingleThreadedExecutor(SchedulerInternals.plan(w.schedule()))
                : new ParallelExecutor(SchedulerInternals.plan(w.schedule()), workers)) {
            System.clearProperty(ChunkPipelines.PROPERTY);
            e.finishPhaseOnFailure(finish);
            for (int t = 0; t < out.length; t++) {
                w.tick = t;
                w.fail = fail && t % 5 == 2;
                String failed = "";
                try {
                    e.run();
                } catch (SystemFailedException f) {
                    failed = f.system() + "@" + f.chunkOrdinal();
                }
                out[t] = mix(mix(w.world.stateHash(), w.seen[0]), failed.hashCode());
            }
            if (workers > 1 && fused) {
                assertEquals(BatchDecision.Mode.FUSED, modes(e).get("cmd"), BatchDecision.toText(e.batching()));
                assertEquals(BatchDecision.Mode.FUSED, modes(e).get("after"), BatchDecision.toText(e.batching()));
                assertEquals(BatchDecision.Mode.FUSED, modes(e).get("fb"), BatchDecision.toText(e.batching()));
            }
        } finally {
            if (old != null) {
                System.setProperty(ChunkPipelines.PROPERTY, old);
            } else {
                System.clearProperty(ChunkPipelines.PROPERTY);
            }
        }
        return out;
    }

    private static java.util.Map<String, BatchDecision.Mode> modes(ScheduleExecutor e) {
        java.util.Map<String, BatchDecision.Mode> out = new java.util.HashMap<>();
        for (BatchDecision d : e.batching()) {
            out.put(d.system(), d.mode());
        }
        return out;
    }

    @Test
    void shouldGiveTheSameHashesFusedAndUnfused() {
        long[] ref = run(1, false, false, false);
        for (int workers : new int[] {2, 3}) {
            assertArrayEquals(ref, run(workers, false, false, false), workers + " unfused");
            assertArrayEquals(ref, run(workers, true, false, false), workers + " fused");
        }
    }

    @Test
    void shouldGiveTheSameHashesAndFailuresFusedAndUnfusedWhenAMemberThrowsInFinishMode() {
        long[] ref = run(1, false, true, true);
        long[] clean = run(1, false, true, false);
        assertEquals(ref[1], clean[1], "no failure before tick 2");
        assertNotEquals(ref[2], clean[2], "tick 2 fails");
        for (int workers : new int[] {2, 3}) {
            assertArrayEquals(ref, run(workers, false, true, true), workers + " unfused");
            assertArrayEquals(ref, run(workers, true, true, true), workers + " fused");
        }
    }
}
