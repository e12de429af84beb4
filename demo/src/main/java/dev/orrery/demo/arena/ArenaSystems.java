package dev.orrery.demo.arena;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.FieldAccess;
import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Clock;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.JobContext;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.Schedule;

/**
 * The arena's systems, in tick order:
 *
 * <pre>
 * PreUpdate   inputs       exclusive  MOVE / SPAWN / SET from the Inputs resource; the squads'
 *                                     points into the SquadTargets table
 *             grid         exclusive  rebuild the SpatialGrid from agents' positions
 * Update      neighbours   range      separation pushes from the neighbours within 1.2
 *                                     units (the grid cells that disc touches), walking the
 *                                     grid in slot order (alternate grid rows each tick)
 *             steer        parallel   push plus a walk to the parent squad's point (ChildOf)
 *                                     into Velocity (the same agents)
 *             fire         parallel   an agent with a weapon ready picks the nearest enemy
 *                                     in range into Target; Primary and Secondary fire, and
 *                                     shots spawn projectiles through the job's command buffer
 *             move         parallel   position += velocity (agents and projectiles)
 *             fly          parallel   projectiles land: hit the nearest enemy or miss
 *             -- sync: projectiles fired this tick appear
 * PostUpdate  damage       exclusive  hits lower Health.hp through a PropertyHandle (by name)
 *             expire       parallel   landed projectiles despawn (command buffer)
 *             reap         parallel   dead agents despawn; a new one spawns from the team's
 *                                     template as a child of the dead one's squad (command
 *                                     buffer: spawn, then addPair)
 *             -- sync: despawns and respawns applied
 * </pre>
 *
 * <p>All randomness comes from the {@link Simulation#RANDOM} resource keyed by tick and
 * entity, and all structural changes go through command buffers or exclusive systems, so
 * the world after each tick is the same on any number of workers.
 *
 * <p><b>Threading:</b> the parallel bodies run on the scheduler's workers, one chunk at a
 * time, and touch only their chunk, read-only resources and their job's command buffer.
 */
final class ArenaSystems {
    /** A projectile hits the nearest enemy within this distance of where it lands. */
    static final float HIT_RADIUS = 0.8f;
    static final float SEPARATION = 1.2f;
    static final float MAX_SPEED = 3f;
    static final int MAX_NEIGHBOURS = 24;
    /** Seconds a ready weapon that found no enemy in range waits before it looks again. */
    static final float RETARGET = 0.25f;
    /**
     * Agents steer (scan their neighbours) on one tick in this many, by the parity of their
     * grid row: halves the largest cost, and at 60 Hz a 30 Hz steering update is not
     * visible. Slicing by row rather than by id keeps the scan's runs of slots contiguous.
     */
    static final int STEER_SLICES = 2;
    static final int STREAM_AIM_X = 1;
    static final int STREAM_AIM_Y = 2;
    static final int STREAM_AIM2_X = 3;
    static final int STREAM_AIM2_Y = 4;
    /** Rows per job for the heavy systems, so 100 000 agents split into many jobs. */
    static final int BATCH = 2048;

    private final Arena arena;
    private final Resources res;
    private final float side;
    private final float arrive;
    private final Field px;
    private final Field py;
    private final Field vx;
    private final Field vy;
    private final Field team;
    private final Field squad;
    private final Field parent;
    private final Field hp;
    private final Field targetEntity;
    private final Field targetX;
    private final Field targetY;
    private final Field projTeam;
    private final Field projState;
    private final Field projDamage;
    private final Field projTtl;
    private final Field projVictim;

    ArenaSystems(Arena arena, Resources resources) {
        this.arena = arena;
        this.res = resources;
        this.side = arena.config().side();
        this.arrive = side / 8f;
        px = arena.position.field("x");
        py = arena.position.field("y");
        vx = arena.velocity.field("x");
        vy = arena.velocity.field("y");
        team = arena.agent.field("team");
        squad = arena.agent.field("squad");
        parent = arena.childOf.target();
        hp = arena.health.field("hp");
        targetEntity = arena.target.field("entity");
        targetX = arena.target.field("x");
        targetY = arena.target.field("y");
        projTeam = arena.projectile.field("team");
        projState = arena.projectile.field("state");
        projDamage = arena.projectile.field("damage");
        projTtl = arena.projectile.field("ttl");
        projVictim = arena.projectile.field("victim");
    }

    void declare(Schedule.Builder s) {
        Arena a = arena;
        s.system("inputs").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.INPUTS, Simulation.CLOCK)
                .writesResource(Arena.SQUADS, Arena.STATS)
                .exclusive(w -> a.applyInputs(res.get(Simulation.INPUTS), res.get(Simulation.CLOCK).tick()));
        s.system("grid").inPhase(Phase.PRE_UPDATE).after("inputs").writesResource(Arena.GRID)
                .exclusive(w -> res.get(Arena.GRID).rebuild(a.agents, px, py, team));
        s.system("neighbours").readsResource(Arena.GRID, Simulation.CLOCK).writesResource(Arena.SEPARATION)
                .minBatchRows(8).forEachRange(() -> res.get(Arena.SEPARATION).prepare(res.get(Arena.GRID)),
                        this::neighbours);
        s.system("steer").query(a.agents).reads(a.position, a.childOf.column()).writes(a.velocity)
                .readsResource(Arena.GRID, Arena.SEPARATION, Arena.SQUADS, Simulation.CLOCK).minBatchRows(BATCH)
                .forEachChunk(this::steer);
        s.system("fire").query(a.agents).reads(a.position, a.agent).writes(a.target, a.primary, a.secondary)
                .spawns(a.position, a.velocity, a.projectile)
                .readsResource(Simulation.CLOCK, Simulation.RANDOM, Arena.GRID).minBatchRows(BATCH)
                .forEachChunk(this::fire);
        // projectiles fired this tick start moving next tick: no sync point before move or fly
        s.system("move").query(a.movers).reads(a.velocity).writes(a.position).readsResource(Simulation.CLOCK)
                .beforeStructuralChanges()
                .minBatchRows(BATCH * 4).forEachChunk(this::move);
        s.system("fly").query(a.projectiles).reads(a.position).writes(a.projectile).beforeStructuralChanges()
                .readsResource(Simulation.CLOCK, Arena.GRID).minBatchRows(BATCH).forEachChunk(this::fly);
        PropertyHandle health = a.world().property("Health", "hp");
        s.system("damage").inPhase(Phase.POST_UPDATE).exclusive(w -> damage(w, health));
        s.system("expire").inPhase(Phase.POST_UPDATE).query(a.projectiles).reads(a.projectile).despawns()
                .minBatchRows(BATCH * 4).forEachChunk(this::expire);
        // only chunks whose health changed since reap last ran can hold a new death (damage and
        // client writes stamp the chunk; a fresh agent arrives with full health)
        s.system("reap").inPhase(Phase.POST_UPDATE).query(a.hurtAgents).reads(a.health, a.agent, a.childOf.column())
                .despawns().spawns(a.position, a.velocity, a.agent, a.health, a.primary, a.secondary, a.target)
                .adds(a.childOf.column())
                .readsResource(Simulation.CLOCK, Simulation.RANDOM).minBatchRows(BATCH * 4).forEachChunk(this::reap);
    }

    /** Separation pushes of the agents in grid rows {@code [from, to)}, in grid order, for this tick's slice. */
    private void neighbours(JobContext job, int from, int to) {
        res.get(Arena.SEPARATION).scan(res.get(Arena.GRID), from, to, STEER_SLICES, steerSlice());
    }

    /** The grid rows (modulo {@link #STEER_SLICES}) that steer this tick: neighbours and steer must agree. */
    private int steerSlice() {
        return (int) (res.get(Simulation.CLOCK).tick() % STEER_SLICES);
    }

    private void steer(JobContext job) {
        ChunkView c = job.chunk();
        SpatialGrid g = res.get(Arena.GRID);
        Separation sep = res.get(Arena.SEPARATION);
        SquadTargets sq = res.get(Arena.SQUADS);
        float[] x = c.readFloats(px);
        float[] y = c.readFloats(py);
        long[] up = c.readLongs(parent);
        float[] u = c.writeFloats(vx);
        float[] v = c.writeFloats(vy);
        long[] ids = c.entities();
        int slice = steerSlice();
        for (int r = 0, n = c.size(); r < n; r++) {
            float x0 = x[r];
            float y0 = y[r];
            if (g.cellCoordinate(y0) % STEER_SLICES != slice) {
                continue; // time-sliced by grid row, as the neighbours scan was
            }
            // Every agent is in the grid: agents appear only in the inputs system and at the
            // sync points ending Update and PostUpdate, and grid is rebuilt after inputs.
            int me = g.slotOfIndex(Entity.index(ids[r]));
            float sx = sep.x(me);
            float sy = sep.y(me);
            int s = Entity.index(up[r]); // the parent squad entity: its point by index
            float dx = sq.x(s) - x0;
            float dy = sq.y(s) - y0;
            float d = (float) Math.sqrt(dx * dx + dy * dy) + 1e-3f;
            float dvx;
            float dvy;
            if (d > arrive) { // walk towards the squad's point
                dvx = dx / d * MAX_SPEED;
                dvy = dy / d * MAX_SPEED;
            } else { // circle it slowly, so squads keep mixing
                dvx = -dy / d * (MAX_SPEED * 0.4f);
                dvy = dx / d * (MAX_SPEED * 0.4f);
            }
            dvx += sx * 0.5f;
            dvy += sy * 0.5f;
            float nu = u[r] + (dvx - u[r]) * 0.2f;
            float nv = v[r] + (dvy - v[r]) * 0.2f;
            float sp2 = nu * nu + nv * nv;
            float max = MAX_SPEED * 1.5f;
            if (sp2 > max * max) {
                float k = max / (float) Math.sqrt(sp2);
                nu *= k;
                nv *= k;
            }
            u[r] = nu;
            v[r] = nv;
        }
    }

    private void fire(JobContext job) {
        ChunkView c = job.chunk();
        CommandBuffer cmds = job.commands();
        Clock clock = res.get(Simulation.CLOCK);
        CounterRandom rnd = res.get(Simulation.RANDOM);
        SpatialGrid g = res.get(Arena.GRID);
        long tick = clock.tick();
        float dt = (float) clock.stepSeconds();
        float[] x = c.readFloats(px);
        float[] y = c.readFloats(py);
        int[] tm = c.readInts(team);
        long[] te = c.writeLongs(targetEntity);
        float[] tx = c.writeFloats(targetX);
        float[] ty = c.writeFloats(targetY);
        long[] ids = c.entities();
        float[] cool1 = c.readFloats(arena.primary.field(0));
        float[] cool2 = c.readFloats(arena.secondary.field(0));
        // Target acquisition: only agents with a weapon ready this tick look for the nearest
        // enemy in range, in the grid as it was at the start of the tick.
        for (int r = 0, n = c.size(); r < n; r++) {
            if (cool1[r] - dt <= 0 || cool2[r] - dt <= 0) {
                int slot = g.nearestEnemy(x[r], y[r], tm[r], ArenaConfig.CELL);
                if (slot >= 0) {
                    te[r] = g.entity(slot);
                    tx[r] = g.x(slot);
                    ty[r] = g.y(slot);
                } else {
                    te[r] = 0L;
                }
            }
        }
        fireWeapon(c, arena.primary, cmds, rnd, tick, dt, x, y, tm, te, tx, ty, ids, STREAM_AIM_X, STREAM_AIM_Y);
        fireWeapon(c, arena.secondary, cmds, rnd, tick, dt, x, y, tm, te, tx, ty, ids, STREAM_AIM2_X, STREAM_AIM2_Y);
    }

    private void fireWeapon(ChunkView c, Component<Weapon> weapon, CommandBuffer cmds, CounterRandom rnd, long tick,
            float dt, float[] x, float[] y, int[] tm, long[] te, float[] tx, float[] ty, long[] ids, int streamX,
            int streamY) {
        float[] cool = c.writeFloats(weapon.field(0));
        float[] reload = c.readFloats(weapon.field(1));
        float[] damage = c.readFloats(weapon.field(2));
        float[] speed = c.readFloats(weapon.field(3));
        float[] spread = c.readFloats(weapon.field(4));
        for (int r = 0, n = c.size(); r < n; r++) {
            float cd = cool[r] - dt;
            if (cd > 0) {
                cool[r] = cd;
                continue;
            }
            if (te[r] == 0L) {
                cool[r] = RETARGET; // nobody in range: look again a little later
                continue;
            }
            long e = ids[r];
            float ax = tx[r] + (rnd.nextFloat(tick, e, streamX) * 2 - 1) * spread[r];
            float ay = ty[r] + (rnd.nextFloat(tick, e, streamY) * 2 - 1) * spread[r];
            float dx = ax - x[r];
            float dy = ay - y[r];
            float dist = (float) Math.sqrt(dx * dx + dy * dy);
            float ttl = Math.max(dist / Math.max(speed[r], 0.1f), dt);
            long p = cmds.spawn();
            cmds.add(p, arena.position, new Position(x[r], y[r]));
            cmds.add(p, arena.velocity, new Velocity(dx / ttl, dy / ttl));
            cmds.add(p, arena.projectile, new Projectile(tm[r], Projectile.FLYING, damage[r], ttl, 0L));
            cool[r] = cd + Math.max(reload[r], dt);
        }
    }

    private void move(JobContext job) {
        ChunkView c = job.chunk();
        float dt = (float) res.get(Simulation.CLOCK).stepSeconds();
        float[] x = c.writeFloats(px);
        float[] y = c.writeFloats(py);
        float[] u = c.readFloats(vx);
        float[] v = c.readFloats(vy);
        float hi = Math.nextDown(side);
        for (int r = 0, n = c.size(); r < n; r++) {
            x[r] = Math.max(0f, Math.min(hi, x[r] + u[r] * dt));
            y[r] = Math.max(0f, Math.min(hi, y[r] + v[r] * dt));
        }
    }

    private void fly(JobContext job) {
        ChunkView c = job.chunk();
        SpatialGrid g = res.get(Arena.GRID);
        float dt = (float) res.get(Simulation.CLOCK).stepSeconds();
        float[] x = c.readFloats(px);
        float[] y = c.readFloats(py);
        int[] tm = c.readInts(projTeam);
        int[] state = c.writeInts(projState);
        float[] ttl = c.writeFloats(projTtl);
        long[] victim = c.writeLongs(projVictim);
        for (int r = 0, n = c.size(); r < n; r++) {
            if (state[r] != Projectile.FLYING) {
                continue;
            }
            float t = ttl[r] - dt;
            ttl[r] = t;
            if (t > 1e-6f) {
                continue;
            }
            int slot = g.nearestEnemy(x[r], y[r], tm[r], HIT_RADIUS);
            if (slot >= 0) {
                state[r] = Projectile.HIT;
                victim[r] = g.entity(slot);
            } else {
                state[r] = Projectile.MISSED;
            }
        }
    }

    /**
     * Exclusive: applies every landed hit in query order, through the "Health"."hp" property.
     * It writes through {@link World#unvalidated()}: a kill takes {@code hp} below 0, outside
     * the range a client may write, and this system is trusted.
     */
    private void damage(World w, PropertyHandle health) {
        ArenaStats stats = res.get(Arena.STATS);
        FieldAccess trusted = w.unvalidated();
        arena.projectiles.forEachChunk(c -> {
            int[] state = c.readInts(projState);
            float[] dmg = c.readFloats(projDamage);
            long[] victim = c.readLongs(projVictim);
            for (int r = 0, n = c.size(); r < n; r++) {
                if (state[r] == Projectile.MISSED) {
                    stats.misses++;
                } else if (state[r] == Projectile.HIT) {
                    stats.hits++;
                    long v = victim[r];
                    if (w.isAlive(v)) {
                        Field f = health.resolve(v);
                        float before = trusted.getFloat(v, f);
                        float after = before - dmg[r];
                        trusted.setFloat(v, f, after);
                        if (before > 0 && after <= 0) {
                            stats.kills++;
                        }
                    }
                }
            }
        });
    }

    private void expire(JobContext job) {
        ChunkView c = job.chunk();
        CommandBuffer cmds = job.commands();
        int[] state = c.readInts(projState);
        long[] ids = c.entities();
        for (int r = 0, n = c.size(); r < n; r++) {
            if (state[r] != Projectile.FLYING) {
                cmds.despawn(ids[r]);
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void reap(JobContext job) {
        ChunkView c = job.chunk();
        float[] life = c.readFloats(hp);
        int n = c.size();
        int r = 0;
        while (r < n && life[r] > 0) {
            r++;
        }
        if (r == n) {
            return;
        }
        CommandBuffer cmds = job.commands();
        CounterRandom rnd = res.get(Simulation.RANDOM);
        long tick = res.get(Simulation.CLOCK).tick();
        int[] tm = c.readInts(team);
        int[] sqd = c.readInts(squad);
        long[] up = c.readLongs(parent);
        long[] ids = c.entities();
        for (; r < n; r++) {
            if (life[r] > 0) {
                continue;
            }
            long dead = ids[r];
            cmds.despawn(dead);
            Template t = arena.template(tm[r]);
            long fresh = cmds.spawn();
            for (int i = 0; i < t.size(); i++) {
                Component col = t.column(i);
                Object value = t.value(i);
                if (col == arena.position) {
                    value = new Position(rnd.nextFloat(tick, dead, Arena.STREAM_PLACE_X) * side,
                            rnd.nextFloat(tick, dead, Arena.STREAM_PLACE_Y) * side);
                } else if (col == arena.agent) {
                    value = new Agent(tm[r], sqd[r]);
                }
                cmds.add(fresh, col, value);
            }
            // the replacement joins the dead agent's squad, last among its children
            cmds.addPair(fresh, arena.childOf, up[r]);
        }
    }
}
