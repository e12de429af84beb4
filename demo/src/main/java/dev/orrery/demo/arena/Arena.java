package dev.orrery.demo.arena;

import dev.orrery.demo.net.ClientCommand;
import dev.orrery.demo.net.ClientReplies;
import dev.orrery.demo.net.ErrorCode;
import dev.orrery.demo.net.NegativeZero;
import dev.orrery.demo.net.Refusal;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.component.FieldValidator;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.ecs.component.Range;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * The arena simulation: teams of agents that steer by their neighbours, walk where their
 * squad is sent, and shoot projectiles at the nearest enemy in range; dead agents come back
 * from their team's template. This class owns the world's components and templates, builds
 * the {@link Simulation} (systems in {@link ArenaSystems}), applies client commands taken
 * from the {@link Simulation#INPUTS} resource, and answers {@code GET}s between ticks.
 *
 * <p>Every agent is spawned from a {@link Template} named after its team, holding two
 * instances of {@link Weapon} named {@code Primary} and {@code Secondary}; clients read and
 * write any field by instance name ({@code GET <agent> Secondary damage}).
 *
 * <p><b>Squads are a hierarchy.</b> Each of the {@link SquadTargets#SQUADS} squads is an entity
 * carrying a {@link Squad} (its number and the point {@code MOVE} sends it to), and every agent
 * is its squad's child: it holds the pair {@code (ChildOf, squad entity)}, made when the agent
 * is spawned (directly here, or through reap's command buffer when a dead agent's replacement
 * takes its place under the same parent). Steering reads each agent's parent from the
 * {@code ChildOf} marker column and walks to that parent's point; {@code Agent.squad} is the
 * parent's number, kept for clients. {@code GET <agent> ChildOf target} answers the parent's
 * id; nobody may {@code SET} it ({@link ClientWrites} refuses a marker field).
 *
 * <p>Build it twice with the same {@link ArenaConfig} and you get the same world: a replay
 * builds a fresh arena without {@link #populate()} and restores the recorded snapshot.
 *
 * <p><b>Threading:</b> build, populate, tick and answer on one thread, the tick thread.
 * {@link #replies(ClientReplies)} may be set from that thread between ticks.
 */
public final class Arena {
    /** The spatial grid resource, rebuilt each tick. */
    public static final ResourceKey<SpatialGrid> GRID = ResourceKey.of("Grid", SpatialGrid.class);
    /** Each agent's separation push by grid slot, filled by the neighbours system each tick. */
    public static final ResourceKey<Separation> SEPARATION = ResourceKey.of("Separation", Separation.class);
    /** The squads' points by squad entity, read from the squad entities each tick for steering. */
    public static final ResourceKey<SquadTargets> SQUADS = ResourceKey.of("Squads", SquadTargets.class);
    /** Running totals, carried by snapshots, so they survive a restore (and a cluster move). */
    public static final ResourceKey<ArenaStats> STATS = ResourceKey.of("Stats", ArenaStats.class);
    /**
     * The arena's parameters, carried by its snapshots (agents, teams, seed), so that a replay
     * can check the recording's parameters file against the snapshot it restores.
     */
    public static final ResourceKey<ArenaConfig> CONFIG = ResourceKey.of("ArenaConfig", ArenaConfig.class);
    /** How {@link #CONFIG} is written to and read from snapshots: {@code int agents | int teams | long seed}. */
    private static final ResourceCodec<ArenaConfig> CONFIG_CODEC = new ResourceCodec<>() {
        @Override
        public void write(ArenaConfig c, DataOutput out) throws IOException {
            out.writeInt(c.agents());
            out.writeInt(c.teams());
            out.writeLong(c.seed());
        }

        @Override
        public ArenaConfig read(DataInput in) throws IOException {
            return new ArenaConfig(in.readInt(), in.readInt(), in.readLong()); // its ranges checked there
        }
    };

    static final int STREAM_PLACE_X = 11;
    static final int STREAM_PLACE_Y = 12;
    static final int STREAM_SQUAD = 13;
    static final int STREAM_COOLDOWN = 14;

    private final ArenaConfig config;
    private final World world = new World();
    final Component<Position> position;
    final Component<Velocity> velocity;
    final Component<Agent> agent;
    final Component<Health> health;
    final Component<Weapon> primary;
    final Component<Weapon> secondary;
    final Component<Target> target;
    final Component<Projectile> projectile;
    final Component<Squad> squad;
    private final Field squadX;
    private final Field squadY;
    /** {@code ChildOf}: every agent is a child of its squad's entity. */
    final Relation childOf;
    final Query agents;
    /** The agents in chunks whose health changed since the reading system last ran (reap's query). */
    final Query hurtAgents;
    final Query projectiles;
    final Query movers;
    /** The squad entities. */
    final Query squads;
    private final Template[] templates;
    private final SquadTargets targets;
    /** The totals put under {@link #STATS} when the simulation is built (a restore replaces them there). */
    private final ArenaStats initialStats = new ArenaStats();
    private final SpatialGrid grid;
    private ClientWrites writes;
    private final byte[] scratch = new byte[InputCodec.MAX_PAYLOAD + 16];
    private Simulation sim;
    private ClientReplies replies = ClientReplies.discarding();

    /** An arena with its components and templates registered and no entities yet. */
    public Arena(ArenaConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        position = world.component(Position.class);
        velocity = world.component(Velocity.class);
        agent = world.component(Agent.class);
        health = world.component(Health.class);
        primary = world.component(Weapon.class, "Primary");
        secondary = world.component(Weapon.class, "Secondary");
        target = world.component(Target.class);
        projectile = world.component(Projectile.class);
        squad = world.component(Squad.class);
        squadX = squad.field("x");
        squadY = squad.field("y");
        childOf = world.relations().childOf();
        Component<?> parent = childOf.column();
        agents = world.query().with(position, velocity, agent, health, primary, secondary, target, parent).build();
        hurtAgents = world.query().with(position, velocity, agent, primary, secondary, target, parent).changed(health)
                .build();
        projectiles = world.query().with(position, projectile).build();
        movers = world.query().with(position, velocity).build();
        squads = world.query().with(squad).build();
        targets = new SquadTargets(squads, squad.field("number"), squadX, squadY);
        // an observer counts the agents that leave the world (reap's despawns, at the sync point)
        world.observe(agent).onDespawn((w, e, commands) -> stats().deaths++);
        templates = new Template[config.teams()];
        for (int t = 0; t < templates.length; t++) {
            templates[t] = Template.named("Team" + t)
                    .with(position, new Position(0, 0))
                    .with(velocity, new Velocity(0, 0))
                    .with(agent, new Agent(t, 0))
                    .with(health, new Health(100f))
                    .with(primary, new Weapon(0f, 1.5f + 0.25f * t, 10f, 16f, 0.6f))
                    .with(secondary, new Weapon(1f, 4f, 25f, 10f, 1.2f))
                    .with(target, new Target(0L, 0f, 0f))
                    .build();
        }
        grid = new SpatialGrid(config.side(), ArenaConfig.CELL);
        float edge = Math.nextDown(config.side());
        registerRules(edge);
        writes = new ClientWrites(List.of(health.field("hp"), position.field("x"), position.field("y"),
                primary.field("cooldown"), primary.field("reload"), primary.field("damage"), primary.field("speed"),
                primary.field("spread"), secondary.field("cooldown"), secondary.field("reload"),
                secondary.field("damage"), secondary.field("speed"), secondary.field("spread")));
    }

    /**
     * The field rules a {@link Range} on the records cannot say, for boundary writes: the team
     * below the team count, positions, aim points and squads' points inside the arena ({@code 0}
     * to just under its side, so a grid cell exists for them), a projectile's victim 0 or a live
     * agent (the damage system reads its hit points) and a target 0 or a live entity.
     */
    private void registerRules(float edge) {
        world.validator(agent.field("team"), FieldValidator.range(0, config.teams() - 1));
        for (Field f : List.of(position.field("x"), position.field("y"), target.field("x"), target.field("y"),
                squadX, squadY)) {
            world.validator(f, FieldValidator.range(0, edge));
        }
        world.validator(projectile.field("victim"), FieldValidator.ofLongs("0 or a live agent",
                v -> v == 0 || world.isAlive(v) && world.has(v, health)));
        world.validator(target.field("entity"), FieldValidator.ofLongs("0 or a live entity",
                v -> v == 0 || world.isAlive(v)));
    }

    /** The configuration. */
    public ArenaConfig config() {
        return config;
    }

    /** The world. */
    public World world() {
        return world;
    }

    /** The template agents of {@code team} are spawned and respawned from. */
    public Template template(int team) {
        return templates[team];
    }

    /**
     * The fields clients may {@code SET}; the rest are server-owned. The values each takes
     * are the world's field rules ({@link Range} on the records, and the validators this arena
     * registers for the team count and the arena's bounds).
     */
    public ClientWrites writes() {
        return writes;
    }

    /** Replaces the allow-list (tests that open every field to reach the value rules). Before {@link #build}. */
    void allowWrites(ClientWrites to) {
        this.writes = Objects.requireNonNull(to, "writes");
    }

    /** Running totals: the simulation's {@link #STATS} resource (restored with a snapshot). */
    public ArenaStats stats() {
        return sim == null ? initialStats : sim.resources().get(STATS);
    }

    /** Where replies to {@code SET} and {@code GET} go (default: nowhere). */
    public void replies(ClientReplies to) {
        this.replies = Objects.requireNonNull(to, "replies");
    }

    /**
     * Builds the simulation over this arena's world with its systems; call once.
     *
     * @param workers   worker threads, counting the tick thread
     * @param hashEvery hash the world every this many ticks (0: never) for recordings
     */
    public Simulation build(int workers, int hashEvery) {
        if (sim != null) {
            throw new IllegalStateException("this arena's simulation is already built; build a new Arena");
        }
        SimulationBuilder b = Simulation.builder(world).seed(config.seed()).workers(workers).hashEvery(hashEvery)
                .resource(GRID, grid)
                .resource(SEPARATION, new Separation(ArenaSystems.SEPARATION, ArenaSystems.MAX_NEIGHBOURS))
                .resource(SQUADS, targets)
                .resource(STATS, initialStats, ArenaStats.CODEC)
                .resource(CONFIG, config, CONFIG_CODEC);
        ArenaSystems systems = new ArenaSystems(this, b.resources());
        sim = b.systems(systems::declare).build();
        return sim;
    }

    /**
     * Spawns the squad entities, each with a point drawn from the seed, then the starting
     * agents, dealt to teams in turn, at places drawn from the seed, each the child of a squad
     * drawn from the seed.
     */
    public void populate() {
        CounterRandom start = new CounterRandom(config.seed());
        float side = config.side();
        for (int s = 0; s < SquadTargets.SQUADS; s++) {
            world.spawn(new Squad(s, start.nextFloat(-1, s, STREAM_PLACE_X) * side,
                    start.nextFloat(-1, s, STREAM_PLACE_Y) * side));
        }
        targets.refresh();
        int n = config.agents();
        int teams = config.teams();
        for (int t = 0; t < teams; t++) {
            int count = n / teams + (t < n % teams ? 1 : 0);
            if (count > 0) {
                place(world.spawnMany(templates[t], count), t, -1);
            }
        }
    }

    private void place(long[] ids, int team, long tick) {
        CounterRandom rnd = new CounterRandom(config.seed());
        float side = config.side();
        for (long e : ids) {
            float x = rnd.nextFloat(tick, e, STREAM_PLACE_X) * side;
            float y = rnd.nextFloat(tick, e, STREAM_PLACE_Y) * side;
            world.set(e, position, new Position(x, y));
            int number = rnd.nextInt(tick, e, STREAM_SQUAD, SquadTargets.SQUADS);
            world.set(e, agent, new Agent(team, number));
            world.relations().add(e, childOf, targets.entity(number));
            // Stagger the first shots, so agents do not all fire on one tick.
            Weapon p = (Weapon) templates[team].value(4);
            world.set(e, primary, withCooldown(p, rnd.nextFloat(tick, e, STREAM_COOLDOWN) * p.reload()));
            Weapon q = (Weapon) templates[team].value(5);
            world.set(e, secondary, withCooldown(q, rnd.nextFloat(tick, e, STREAM_COOLDOWN + 1) * q.reload()));
        }
    }

    private static Weapon withCooldown(Weapon w, float cooldown) {
        return new Weapon(cooldown, w.reload(), w.damage(), w.speed(), w.spread());
    }

    /** The entity of squad {@code number} (0 to {@link SquadTargets#SQUADS} - 1), or 0 before {@link #populate}. */
    public long squadEntity(int number) {
        return targets.entity(number);
    }

    /** Agents alive now. */
    public int agentCount() {
        return agents.count();
    }

    /** Projectiles in flight now. */
    public int projectileCount() {
        return projectiles.count();
    }

    /** The {@code STATE} summary text: teams, agents, projectiles and totals. */
    public String summary() {
        return "teams=" + config.teams() + " agents=" + agentCount() + " projectiles=" + projectileCount() + " hits="
                + stats().hits + " kills=" + stats().kills;
    }

    // ---------------------------------------------------------------- inputs (tick thread, exclusive system)

    /**
     * Applies this tick's {@code MOVE}, {@code SPAWN} and {@code SET} inputs; run by the input
     * system. The squad table is read from the squad entities first (a restored snapshot brings
     * its own), and again after a {@code MOVE}, so steering sees this tick's points.
     */
    void applyInputs(InputBatch in, long tick) {
        targets.refresh();
        boolean moved = false;
        for (int i = 0, n = in.size(); i < n; i++) {
            switch (in.type(i)) {
                case InputCodec.MOVE -> {
                    float side = config.side();
                    long e = targets.entity(SquadTargets.squadOf(in.payloadInt(i, 16)));
                    world.setFloat(e, squadX, clamp(in.payloadFloat(i, 20), side));
                    world.setFloat(e, squadY, clamp(in.payloadFloat(i, 24), side));
                    moved = true;
                }
                case InputCodec.SPAWN -> {
                    long client = InputCodec.clientId(in, i);
                    int team = (int) Math.floorMod(client, (long) config.teams());
                    int count = in.payloadInt(i, 16);
                    place(world.spawnMany(templates[team], count), team, tick);
                    stats().spawnedByClients += count;
                }
                case InputCodec.SET -> applySet(in, i);
                default -> { } // an input type of a later version: ignored, so old journals stay readable
            }
        }
        if (moved) {
            targets.refresh();
        }
    }

    private static float clamp(float v, float side) {
        return v < 0 ? 0 : Math.min(v, Math.nextDown(side));
    }

    private void applySet(InputBatch in, int i) {
        long client = InputCodec.clientId(in, i);
        long request = InputCodec.requestId(in, i);
        long entity = in.payloadLong(i, 16);
        int kind = in.payloadByte(i, 24);
        double value = in.payloadDouble(i, 25);
        String comp = InputCodec.setComponent(in, i, scratch);
        String fieldName = InputCodec.setField(in, i, scratch);
        Object boxed = checkedValue(client, request, entity, comp, fieldName, kind, value);
        if (boxed == null || resolve(replies, client, request, entity, comp, fieldName) == null) {
            return;
        }
        world.setProperty(entity, comp, fieldName, boxed);
        replies.reply(client, request, "");
    }

    /**
     * The value of a {@code SET} boxed for its field, or null after replying: {@code FORBIDDEN}
     * for a field not on the allow-list, {@code BAD_VALUE} for a value of the wrong type or
     * one the field's rules refuse ({@code World.checkWrite}; checked before the entity, so a
     * bad value is answered the same whether or not the entity still lives).
     */
    private Object checkedValue(long client, long request, long entity, String comp, String fieldName, int kind,
            double value) {
        // Checked again here, not only at the server: a journal replays through this path too.
        Field allowed = writes.field(comp, fieldName);
        if (allowed == null) {
            Refusal no = writes.forbidden(comp, fieldName);
            replies.replyError(client, request, no.code(), no.message());
            return null;
        }
        Object boxed = convert(allowed.type(), kind, value);
        if (boxed == null) {
            replies.replyError(client, request, ErrorCode.BAD_VALUE, comp + "." + fieldName + " is "
                    + allowed.type().javaType().getSimpleName() + "; the value does not fit it, so send a "
                    + describe(allowed.type()));
            return null;
        }
        try {
            world.checkWrite(entity, allowed, allowed.type().bitsOf(boxed));
        } catch (InvalidFieldValueException e) {
            replies.replyError(client, request, ErrorCode.BAD_VALUE, e.getMessage());
            return null;
        }
        return boxed;
    }

    /** The field, or null after replying NOT_FOUND naming what is missing. */
    private Field resolve(ClientReplies replies, long client, long request, long entity, String comp,
            String fieldName) {
        if (!world.isAlive(entity)) {
            replies.replyError(client, request, ErrorCode.NOT_FOUND, "entity " + entity
                    + " is not alive; agents die and respawn with new ids, so GET an id from a recent STATE or spawn");
            return null;
        }
        Component<?> c = world.findComponent(entity, comp);
        if (c == null) {
            replies.replyError(client, request, ErrorCode.NOT_FOUND, "entity " + entity + " has no component named '"
                    + comp + "'; agents have Position, Velocity, Agent, Health, Primary, Secondary, Target, "
                    + "ChildOf; squads have Squad");
            return null;
        }
        for (Field f : c.fields()) {
            if (f.name().equals(fieldName)) {
                return f;
            }
        }
        StringBuilder names = new StringBuilder();
        for (Field f : c.fields()) {
            names.append(names.length() == 0 ? "" : ", ").append(f.name());
        }
        replies.replyError(client, request, ErrorCode.NOT_FOUND, comp + " has no field '" + fieldName
                + "'; its fields are " + names);
        return null;
    }

    private static Object convert(FieldType type, int kind, double v) {
        if (kind == InputCodec.UNREADABLE || Double.isNaN(v)) {
            return null;
        }
        switch (type) {
            case BOOLEAN:
                return kind == InputCodec.BOOLEAN ? Boolean.valueOf(v != 0) : null;
            case FLOAT:
                // a negative too small for a float rounds to -0: stored as 0, as InputCodec writes -0 itself; an
                // exact 0 payload keeps its sign, so an older recording that holds -0 replays as it was recorded
                return kind == InputCodec.NUMBER && Math.abs(v) <= Float.MAX_VALUE
                        ? Float.valueOf(v == 0 ? (float) v : NegativeZero.toZero((float) v)) : null;
            case DOUBLE:
                return kind == InputCodec.NUMBER ? Double.valueOf(v) : null;
            case INT:
                return kind == InputCodec.NUMBER && v == Math.rint(v) && v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE
                        ? Integer.valueOf((int) v) : null;
            case LONG:
                return kind == InputCodec.NUMBER && v == Math.rint(v) && Math.abs(v) < 0x1p53 ? Long.valueOf((long) v)
                        : null;
            default:
                return null;
        }
    }

    private static String describe(FieldType type) {
        switch (type) {
            case BOOLEAN:
                return "true or false";
            case INT:
            case LONG:
            case SHORT:
            case BYTE:
                return "whole number in the field's range";
            default:
                return "finite decimal number";
        }
    }

    /**
     * Answers a {@code GET} from the current world: {@code OK <n> <value>}, or
     * {@code NOT_FOUND} naming the missing entity, component or field. Call between ticks.
     */
    public void answer(ClientCommand.GetProperty get, ClientReplies to) {
        Field f = resolve(to, get.clientId(), get.requestId(), get.entity(), get.component(), get.field());
        if (f != null) {
            to.reply(get.clientId(), get.requestId(), String.valueOf(world.getValue(get.entity(), f)));
        }
    }
}
