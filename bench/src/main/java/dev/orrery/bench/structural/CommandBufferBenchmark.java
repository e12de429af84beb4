package dev.orrery.bench.structural;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.PlaybackReport;
import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Command buffer throughput: how fast one thread records commands (target at least 50 M
 * commands/s), and how fast playback applies structural changes with per-entity batching
 * (target at least 10 M changes/s). Scores are operations per second, one operation being
 * one command.
 *
 * <p>The {@code projectile*} and {@code demoTick} cases reproduce what the arena demo plays
 * back every tick at 100 000 agents: about 1 300 projectiles spawned through two workers'
 * buffers (spawn, then three record adds each), the previous tick's 1 300 despawned, and
 * 150 agents despawned and respawned with seven components.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar CommandBufferBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CommandBufferBenchmark {
    static final int N = 100_000;

    /** A value component with two fields. */
    public record Health(int hp, float armor) {
    }

    /** A tag. */
    public record Stunned() {
    }

    /** One thread's buffer, recording over a fixed set of entity ids. */
    @State(Scope.Thread)
    public static class Recording {
        final World world = new World();
        final Component<Health> health = world.component(Health.class);
        final Component<Stunned> stunned = world.component(Stunned.class);
        final CommandBuffer buffer = new CommandBuffer(0);
        final Health value = new Health(10, 0.5f);
        long[] ids;

        /** Spawns the entities the commands name. */
        @Setup
        public void setUp() {
            ids = world.entity().spawnMany(N);
        }
    }

    /** Records N commands (add with a two-field value, or add a tag), then clears. */
    @Benchmark
    @OperationsPerInvocation(N)
    public int record(Recording s) {
        CommandBuffer b = s.buffer;
        long[] ids = s.ids;
        b.clear();
        EcsInternals.beginChunk(b, 1, 0);
        for (int i = 0; i < N; i += 2) {
            b.add(ids[i], s.health, s.value);
            b.add(ids[i + 1], s.stunned);
        }
        return b.commandCount();
    }

    /**
     * The {@link Recording} world of N entities, with its buffer recorded again before each
     * playback (the trial setup that spawns the entities is {@link Recording#setUp}).
     */
    public static class Applying extends Recording {
        boolean adding = true;

        /** Records N/2 entities x 2 changes: add both columns, or remove both (alternating). */
        @Setup(Level.Invocation)
        public void record() {
            buffer.clear();
            for (int i = 0; i < N; i += 2) {
                long e = ids[i];
                if (adding) {
                    buffer.add(e, health, value);
                    buffer.add(e, stunned);
                } else {
                    buffer.remove(e, health);
                    buffer.remove(e, stunned);
                }
            }
            adding = !adding;
        }
    }

    /** Plays back N structural changes (N/2 entities, two changes each, batched into one move). */
    @Benchmark
    @OperationsPerInvocation(N)
    public PlaybackReport playback(Applying s) {
        return s.world.apply(s.buffer);
    }

    /** Projectiles spawned (and despawned) per tick by the demo at 100 000 agents. */
    static final int SHOTS = 1_300;
    /** Agents despawned and respawned per tick by the demo. */
    static final int RESPAWNS = 150;
    /** Agents alive in the demo world. */
    static final int AGENTS = 100_000;

    /** The demo's position: two floats. */
    public record Pos2(float x, float y) {
    }

    /** The demo's velocity: two floats. */
    public record Vel2(float x, float y) {
    }

    /** The demo's projectile: five fields of four types. */
    public record Shot(int team, int state, float damage, float ttl, long victim) {
    }

    /** An agent's team and squad. */
    public record Member(int team, int squad) {
    }

    /** An agent's hit points. */
    public record Life(float hp, float max) {
    }

    /** An agent's weapon state. */
    public record Weapon(float cooldown, float range, long target) {
    }

    /** An agent's steering state. */
    public record Steer(float heading, float speed) {
    }

    /** An agent marker. */
    public record Alive() {
    }

    /** A world shaped like the demo's, with two workers' buffers. */
    @State(Scope.Thread)
    public static class Demo {
        final World world = new World();
        final Component<Pos2> position = world.component(Pos2.class);
        final Component<Vel2> velocity = world.component(Vel2.class);
        final Component<Shot> projectile = world.component(Shot.class);
        final Component<Member> member = world.component(Member.class);
        final Component<Life> life = world.component(Life.class);
        final Component<Weapon> weapon = world.component(Weapon.class);
        final Component<Steer> steer = world.component(Steer.class);
        final Component<Alive> alive = world.component(Alive.class);
        final CommandBuffer[] buffers = {new CommandBuffer(0), new CommandBuffer(1)};
        final java.util.List<CommandBuffer> bufferList = java.util.List.of(buffers);
        long[] agents = new long[AGENTS];
        long[] shots = new long[SHOTS];
        int tick;

        /** Spawns the agents. */
        @Setup(Level.Trial)
        public void setUp() {
            for (int i = 0; i < AGENTS; i++) {
                agents[i] = world.spawn(new Pos2(i, -i), new Vel2(1, 0), new Member(i & 1, i & 15),
                        new Life(100, 100), new Weapon(0, 30, 0L), new Steer(0, 2), new Alive());
            }
        }

        void recordShots() {
            for (int i = 0; i < SHOTS; i++) {
                CommandBuffer cmds = buffers[i & 1];
                if ((i & 63) == 0) {
                    EcsInternals.beginChunk(cmds, 3, i >> 6);
                }
                long p = cmds.spawn();
                cmds.add(p, position, new Pos2(i + tick, i - tick));
                cmds.add(p, velocity, new Vel2(i * 0.5f, -i * 0.25f));
                cmds.add(p, projectile, new Shot(i & 1, 0, 10 + i, 1.5f, 0L));
            }
        }

        void recordDespawns(long[] ids, int systemOrder) {
            for (int i = 0; i < ids.length; i++) {
                CommandBuffer cmds = buffers[i & 1];
                if ((i & 63) == 0) {
                    EcsInternals.beginChunk(cmds, systemOrder, i >> 6);
                }
                cmds.despawn(ids[i]);
            }
        }

        void recordRespawns() {
            for (int i = 0; i < RESPAWNS; i++) {
                CommandBuffer cmds = buffers[i & 1];
                EcsInternals.beginChunk(cmds, 5, i);
                int victim = (int) (((long) (tick * RESPAWNS + i) * 7919) % AGENTS);
                cmds.despawn(agents[victim]);
                long fresh = cmds.spawn();
                cmds.add(fresh, position, new Pos2(victim, tick));
                cmds.add(fresh, velocity, new Vel2(0, 0));
                cmds.add(fresh, member, new Member(i & 1, i & 15));
                cmds.add(fresh, life, new Life(100, 100));
                cmds.add(fresh, weapon, new Weapon(0, 30, 0L));
                cmds.add(fresh, steer, new Steer(0, 2));
                cmds.add(fresh, alive);
            }
        }

        /** The live projectiles' ids, read from their archetype. */
        long[] liveShots() {
            Archetype a = EcsInternals.storage(world).archetypes().of(position, velocity, projectile);
            long[] ids = new long[a.size()];
            int n = 0;
            for (int ci = 0; ci < a.chunkCount(); ci++) {
                Chunk c = a.chunk(ci);
                System.arraycopy(c.entities(), 0, ids, n, c.size());
                n += c.size();
            }
            return ids;
        }

        /** The live agents' ids (respawns change them), read from their archetype. */
        void refreshAgents() {
            Archetype a = EcsInternals.storage(world).archetypes().of(position, velocity, member, life, weapon, steer, alive);
            int n = 0;
            for (int ci = 0; ci < a.chunkCount(); ci++) {
                Chunk c = a.chunk(ci);
                System.arraycopy(c.entities(), 0, agents, n, c.size());
                n += c.size();
            }
        }
    }

    /** Before each projectile spawn: the previous spawns are despawned directly, the new ones recorded. */
    public static class SpawnShots extends Demo {
        /** Clears the last invocation's projectiles and records {@link #SHOTS} new ones. */
        @Setup(Level.Invocation)
        public void record() {
            for (long id : liveShots()) {
                world.despawn(id);
            }
            tick++;
            recordShots();
        }
    }

    /** Before each projectile despawn: projectiles are spawned directly and their despawns recorded. */
    public static class DespawnShots extends Demo {
        /** Spawns {@link #SHOTS} projectiles and records their despawns. */
        @Setup(Level.Invocation)
        public void record() {
            tick++;
            for (int i = 0; i < SHOTS; i++) {
                shots[i] = world.spawn(new Pos2(i, tick), new Vel2(1, 1), new Shot(i & 1, 0, 10, 1.5f, 0L));
            }
            recordDespawns(shots, 4);
        }
    }

    /** Before each demo tick: last tick's projectiles despawned, new ones spawned, agents respawned. */
    public static class DemoTick extends Demo {
        /** Records one demo tick's commands into the two buffers. */
        @Setup(Level.Invocation)
        public void record() {
            tick++;
            refreshAgents();
            recordShots();
            recordDespawns(liveShots(), 4);
            recordRespawns();
        }
    }

    /** Plays back {@link #SHOTS} projectile spawns (spawn plus three record adds each). */
    @Benchmark
    @OperationsPerInvocation(SHOTS)
    public PlaybackReport projectileSpawn(SpawnShots s) {
        return s.world.apply(s.bufferList);
    }

    /** Plays back {@link #SHOTS} projectile despawns. */
    @Benchmark
    @OperationsPerInvocation(SHOTS)
    public PlaybackReport projectileDespawn(DespawnShots s) {
        return s.world.apply(s.bufferList);
    }

    /**
     * Plays back one demo tick: {@link #SHOTS} projectile spawns, the previous tick's
     * despawns and {@link #RESPAWNS} agent respawns; one operation is one tick.
     */
    @Benchmark
    public PlaybackReport demoTick(DemoTick s) {
        return s.world.apply(s.bufferList);
    }
}
