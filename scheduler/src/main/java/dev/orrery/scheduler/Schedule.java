package dev.orrery.scheduler;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.access.SystemAccess;
import dev.orrery.scheduler.event.EventChannel;
import dev.orrery.scheduler.executor.ExecutionPlan;
import dev.orrery.scheduler.executor.PlannedExecutor;
import dev.orrery.scheduler.executor.ScheduledSystem;
import dev.orrery.scheduler.flow.PhaseRule;
import dev.orrery.scheduler.graph.SystemDeclaration;
import dev.orrery.scheduler.graph.SystemGraph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * A set of systems over one world, with their dependency graph: the facade of the scheduler.
 *
 * <pre>{@code
 * Schedule schedule = Schedule.builder(world)
 *     .system("move").query(world.query().with(pos, vel).build())
 *         .reads(vel).writes(pos)
 *         .forEachChunk(job -> {
 *             float[] x = job.chunk().writeFloats(px);
 *             float[] v = job.chunk().readFloats(vx);
 *             for (int i = 0, n = job.chunk().size(); i < n; i++) x[i] += v[i];
 *         })
 *     .system("cells").readsResource(GRID).writesResource(FIELD)     // a range system
 *         .forEachRange(() -> grid.size(), (job, from, to) -> field.update(grid, from, to))
 *     .system("spawner").inPhase(Phase.POST_UPDATE).exclusive(w -> w.spawn(new Position(0, 0, 0)))
 *     .system("propagate").reads(local).writes(global)                // a level system over ChildOf
 *         .forEachLevel(childOf, (job, h, from, to) -> propagate(job, h, from, to))
 *     .build();
 * try (ScheduleExecutor executor = schedule.executor(4)) {
 *     executor.run(); // one tick
 * }
 * }</pre>
 *
 * <p>Flow: {@code .readsEvents}/{@code .writesEvents} and {@code job.send}/{@code job.events}
 * (events between systems, {@code dev.orrery.scheduler.event}); {@code .runIf} on a system or
 * {@link Builder#runIf} on a phase, {@link Builder#fixedTimestep} and {@code .onEnter}/
 * {@code .onExit} with {@link Builder#state} (run conditions, fixed-timestep phases and
 * states, {@code dev.orrery.scheduler.flow}).
 *
 * <p>Over 500 lines, on purpose: this is the builder facade, one short method per thing a
 * user declares, and most of its length is the Javadoc with examples users read.
 *
 * <p><b>Threading:</b> build and use on the thread that owns the world; the executor's
 * Javadoc says what runs where.
 */
public final class Schedule {
    /**
     * The {@code minBatchRows} of a system that sets none, which reads as "not set": such a
     * system is split adaptively, by its measured cost per row (see {@link BatchDecision}), and
     * uses this many rows per job only until its first run is measured. Passing this value to
     * {@link SystemBuilder#minBatchRows} or {@link Builder#minBatchRows} therefore keeps the
     * adaptive rule; any other value fixes the split.
     */
    public static final int DEFAULT_MIN_BATCH_ROWS = 16_384;

    private final ExecutionPlan plan;

    private Schedule(ExecutionPlan plan) {
        this.plan = plan;
    }

    /**
     * Starts a schedule over {@code world}, with phases PreUpdate, Update and PostUpdate.
     *
     * @param world the world the systems run over, not null; its queries and columns are the ones
     *     the systems may name
     * @return a new builder
     */
    public static Builder builder(World world) {
        return new Builder(world);
    }

    /**
     * The world the systems run over.
     *
     * @return the world given to {@link #builder}
     */
    public World world() {
        return plan.world();
    }

    /** The dependency graph. */
    SystemGraph graph() {
        return plan.graph();
    }

    /**
     * The resource store the systems reach through {@code JobContext.resource(key)} and the others.
     *
     * @return the store, the same object on every call (shared with the simulation that owns the
     *     schedule, if any)
     */
    public Resources resources() {
        return plan.resources();
    }

    /** The plan an executor runs. */
    ExecutionPlan plan() {
        return plan;
    }

    /**
     * An executor with {@code workers} threads in all, counting the caller: 1 runs
     * everything on the calling thread. Close it when done.
     *
     * @param workers the threads that run jobs, the calling thread included: 1 to 256
     * @return a new executor that owns {@code workers - 1} threads until closed
     * @throws IllegalArgumentException if {@code workers} is not 1 to 256
     */
    public ScheduleExecutor executor(int workers) {
        return PlannedExecutor.create(plan, workers);
    }

    /**
     * The systems' names in graph order: a {@link JobObserver}'s {@code systemIndex} is an
     * index into this list. Read-only.
     *
     * @return an unmodifiable list, one name per system, in graph order
     */
    public List<String> systemNames() {
        SystemGraph g = plan.graph();
        String[] names = new String[g.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = g.system(i).name();
        }
        return List.of(names);
    }

    /**
     * The graph in Graphviz DOT: systems, their edges with reasons, and the sync points.
     *
     * @return a {@code digraph} text for {@code dot -Tsvg}; it is built anew on each call
     */
    public String toDot() {
        return plan.graph().toDot();
    }

    /** The graph as text: each phase's systems in run order, with their edges and sync points. */
    @Override
    public String toString() {
        return plan.graph().toText();
    }

    /**
     * Collects system declarations in registration order.
     *
     * <p><b>Threading:</b> not thread-safe; use on one thread.
     */
    public static final class Builder {
        private final World world;
        private List<Phase> phases = List.of(Phase.PRE_UPDATE, Phase.UPDATE, Phase.POST_UPDATE);
        private int minBatchRows = DEFAULT_MIN_BATCH_ROWS;
        private final List<SystemBuilder> systems = new ArrayList<>();
        private Resources resources = new Resources();
        private final Map<Phase, PhaseRule> rules = new IdentityHashMap<>();
        /** On-enter/on-exit phases, by "state name/value/enter", in the order first asked for. */
        private final Map<String, Phase> transitionPhases = new LinkedHashMap<>();
        private final List<ResourceKey<?>> stateMachines = new ArrayList<>();

        private Builder(World world) {
            this.world = Objects.requireNonNull(world, "world");
        }

        /**
         * Puts a resource value into the schedule's store, for systems that declare
         * {@code readsResource(key)}, {@code writesResource(key)} or {@code reducesResource(key)}
         * and reach it through their job ({@code job.resource(key)}, ...), with no engine:
         *
         * <pre>{@code
         * ResourceKey<LongSum> LIVING = ResourceKey.of("living", LongSum.class);
         * Schedule.builder(world).resource(LIVING, new LongSum())
         *     .system("count").query(q).reducesResource(LIVING)
         *     .forEachChunk(job -> job.add(LIVING, job.chunk().size()))
         * }</pre>
         *
         * @param <T> the resource's type
         * @param key the resource's key, not null
         * @param value the value, of the key's type; it replaces a value put before under
         *     {@code key}
         * @return this builder
         */
        public <T> Builder resource(ResourceKey<T> key, T value) {
            resources.put(key, value);
            return this;
        }

        /**
         * Makes {@code store} the schedule's resource store (replacing the empty one each
         * builder starts with), so the schedule and its owner (the engine's simulation, for
         * instance) share one store.
         *
         * @param store the store to use, not null; resources put on this builder before are not
         *     carried over to it
         * @return this builder
         */
        public Builder resources(Resources store) {
            this.resources = Objects.requireNonNull(store, "resources");
            return this;
        }

        /**
         * The schedule's resource store, for exclusive system bodies and count suppliers to
         * capture: capture the store and read {@code store.get(KEY)} each time, not the value
         * (a snapshot restore may put a new one).
         *
         * @return the store the built schedule will use
         */
        public Resources resources() {
            return resources;
        }

        /**
         * Replaces the phases, in run order.
         *
         * @param phases the phases in run order, none null; every phase a system or rule names must
         *     be among them
         * @return this builder
         */
        public Builder phases(Phase... phases) {
            this.phases = List.of(phases);
            return this;
        }

        /**
         * Runs {@code phase} only while {@code condition} holds, tested as the phase would
         * start (each run; for a fixed-timestep phase, before the accumulator is fed, so a
         * phase held off does not catch up later). A phase skipped this way gets no sync point
         * and no {@code SyncPoint.afterPhase} call.
         *
         * <pre>{@code
         * .runIf(Phase.UPDATE, RunCondition.inState(MODE, Mode.PLAYING))
         * }</pre>
         *
         * @param phase one of the schedule's phases, not null
         * @param condition tested on the thread that runs the schedule, not null; it replaces a
         *     condition set before for {@code phase}
         * @return this builder
         */
        public Builder runIf(Phase phase, RunCondition condition) {
            rules.put(phase, rule(phase).withCondition(Objects.requireNonNull(condition, "condition")));
            noteStates(condition);
            return this;
        }

        /**
         * Makes {@code phase} a fixed-timestep phase: each run feeds the {@link FixedTimestep}
         * under {@code accumulator} and runs the phase once per whole step it holds (0 or more
         * times), each time with its sync point; see {@link FixedTimestep}. Put the
         * accumulator as a resource (with a snapshot codec under a simulation).
         *
         * @param phase one of the schedule's phases, not null
         * @param accumulator the key of the {@link FixedTimestep} resource that feeds the phase
         * @return this builder
         */
        public Builder fixedTimestep(Phase phase, ResourceKey<FixedTimestep> accumulator) {
            rules.put(phase, rule(phase).withFixedStep(accumulator));
            return this;
        }

        /**
         * Makes the schedule apply the requested transitions of the state machine under
         * {@code key} at each run boundary (see {@link States}). Declaring an
         * {@code onEnter}/{@code onExit} system or an {@link RunCondition#inState} condition
         * does it too, and so does the machine being in the store when the schedule is built;
         * call this for one put in the store only after the build.
         *
         * @param key the key of the {@link States} resource, not null; naming it twice changes
         *     nothing
         * @return this builder
         */
        public Builder state(ResourceKey<? extends States<?>> key) {
            if (!stateMachines.contains(Objects.requireNonNull(key, "state key"))) {
                stateMachines.add(key);
            }
            return this;
        }

        private PhaseRule rule(Phase phase) {
            return rules.getOrDefault(Objects.requireNonNull(phase, "phase"), PhaseRule.ALWAYS);
        }

        private void noteStates(RunCondition condition) {
            for (ResourceKey<?> k : condition.stateKeys()) {
                if (!stateMachines.contains(k)) {
                    stateMachines.add(k);
                }
            }
        }

        /** The hidden phase holding the systems run on entering ({@code enter}) or leaving {@code value}. */
        private <S extends Enum<S>> Phase transitionPhase(ResourceKey<States<S>> key, S value, boolean enter) {
            state(key);
            String name = (enter ? "OnEnter(" : "OnExit(") + key.name() + "=" + value + ")";
            Phase phase = transitionPhases.get(name);
            if (phase == null) {
                phase = Phase.named(name);
                transitionPhases.put(name, phase);
                rules.put(phase, PhaseRule.transition(key, value, enter));
            }
            return phase;
        }

        /**
         * The fewest rows per job for systems that do not set their own, fixing their split in
         * place of the adaptive rule ({@link #DEFAULT_MIN_BATCH_ROWS} reads as not set and keeps
         * them adaptive).
         *
         * @param rows the fewest rows per job, 1 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code rows} is below 1
         */
        public Builder minBatchRows(int rows) {
            if (rows < 1) {
                throw new IllegalArgumentException("the schedule's minBatchRows must be at least 1, got " + rows
                        + "; leave it unset for the adaptive split");
            }
            this.minBatchRows = rows;
            return this;
        }

        /**
         * Starts declaring the system {@code name}; finish it with {@code forEachChunk},
         * {@code forEachRange}, {@code forEachLevel} or {@code exclusive}.
         *
         * @param name the system's name, unique in the schedule; errors, traces and recordings show
         *     it
         * @return a builder for the system; its {@code forEachChunk}, {@code forEachRange},
         *     {@code forEachLevel} or {@code exclusive} returns this schedule builder
         * @throws NullPointerException when {@code name} is null
         * @throws IllegalArgumentException when {@code name} is blank, or is named as the
         *     scheduler names a sync point ({@link SystemFailedException#namesSyncPoint});
         *     duplicates are refused by {@link #build}
         */
        public SystemBuilder system(String name) {
            return new SystemBuilder(this, name);
        }

        /**
         * Builds the graph and the plan.
         *
         * @return a new schedule, its graph and plan fixed
         * @throws IllegalArgumentException for duplicate or unknown names, unlisted phases,
         *     orders that contradict phases, or a declared write of a relation's marker column
         *     (change pairs with {@code job.commands().addPair}/{@code removePair})
         * @throws dev.orrery.scheduler.OrderCycleException when explicit orders form a cycle
         */
        public Schedule build() {
            List<SystemDeclaration> decls = new ArrayList<>();
            for (SystemBuilder s : systems) {
                decls.add(s.declaration());
            }
            List<Phase> allPhases = new ArrayList<>(transitionPhases.values()); // transitions run first
            allPhases.addAll(phases);
            List<PhaseRule> phaseRules = new ArrayList<>();
            for (Phase p : allPhases) {
                phaseRules.add(rule(p));
            }
            for (Phase p : rules.keySet()) {
                if (!allPhases.contains(p)) {
                    throw new IllegalArgumentException("phase " + p + " has a rule (" + rules.get(p) + ") but the "
                            + "schedule does not list it (" + phases + "); add it with phases(...)");
                }
            }
            SystemGraph graph = SystemGraph.build(decls, allPhases, phaseRules);
            putEventChannels(decls);
            List<ScheduledSystem> byPosition = new ArrayList<>();
            for (int i = 0; i < graph.size(); i++) {
                SystemBuilder s = systems.get(graph.registrationIndex(i));
                int minRows = s.minBatchRows > 0 ? s.minBatchRows : minBatchRows;
                if (s.levelBody != null) {
                    byPosition.add(ScheduledSystem.level(graph.system(i), s.levelRelation, s.levelBody, minRows));
                    continue;
                }
                byPosition.add(new ScheduledSystem(graph.system(i), s.query, s.body, s.exclusiveBody, s.rangeBody,
                        s.rangeCount, minRows, null, null));
            }
            return new Schedule(new ExecutionPlan(world, graph, byPosition, resources, stateMachines));
        }

        /** Puts an empty channel for each declared event key that has none in the store yet. */
        private void putEventChannels(List<SystemDeclaration> decls) {
            for (SystemDeclaration d : decls) {
                for (List<EventKey<?>> keys : List.of(d.access().eventReads(), d.access().eventWrites())) {
                    for (EventKey<?> k : keys) {
                        putChannel(k);
                    }
                }
            }
        }

        private <T> void putChannel(EventKey<T> key) {
            if (!resources.has(key.channel())) {
                resources.put(key.channel(), new EventChannel<>(key));
            }
        }
    }

    /**
     * Declares one system: its query, reads and writes, phase and order. Ends with
     * {@link #forEachChunk} (an ordinary system), {@link #forEachRange} (a loop over indices),
     * {@link #forEachLevel} (a walk of a hierarchy, level by level) or {@link #exclusive} (a
     * whole-world one), which return the schedule builder.
     *
     * <p><b>Threading:</b> not thread-safe; use on one thread.
     */
    public static final class SystemBuilder {
        private final Builder owner;
        private final String name;
        private final SystemAccess.Builder access;
        private Query query;
        private Phase phase = Phase.UPDATE;
        private final List<String> before = new ArrayList<>();
        private final List<String> after = new ArrayList<>();
        private int minBatchRows;
        private ChunkSystem body;
        private ExclusiveJobSystem exclusiveBody;
        private RangeSystem rangeBody;
        private IntSupplier rangeCount;
        private Relation levelRelation;
        private LevelSystem levelBody;
        private boolean componentsDeclared;
        private boolean effectsDeclared;
        private boolean touchesOtherEntities;
        private RunCondition runIf;

        private SystemBuilder(Builder owner, String name) {
            this.owner = owner;
            this.name = Objects.requireNonNull(name, "system name");
            if (name.isBlank()) { // as a resource, an event channel or a phase: the name is all errors and traces show
                throw new IllegalArgumentException("a system needs a non-blank name, used in errors, traces, the graph's "
                        + "output and recordings' per-system hashes; got '" + name + "'");
            }
            if (SystemFailedException.namesSyncPoint(name)) { // a journal keeps only the name of what failed
                throw new IllegalArgumentException("system name '" + name + "' is how the scheduler names a sync "
                        + "point ('" + SystemFailedException.syncPointEndingPhase("<phase>") + "', '"
                        + SystemFailedException.syncPointBeforeSystem("<system>") + "'), and a "
                        + "failure or a journal naming it could not say which failed; rename the system");
            }
            this.access = SystemAccess.builder(name);
        }

        /**
         * The chunks the system visits.
         *
         * @param query a query built by the schedule's world, not null; its terms place sync points, but
         *     the columns its jobs read or write still need {@link #reads} or {@link #writes}
         * @return this system builder, for the next declaration
         */
        public SystemBuilder query(Query query) {
            this.query = Objects.requireNonNull(query, "query");
            access.queryColumns(EcsInternals.termColumnIds(query));
            return this;
        }

        /**
         * Declares that the system's jobs may record spawns ({@code job.commands().spawn()},
         * template and shape spawns) and give the new entities these components (by {@code add}
         * or {@code set} commands on the spawned handle; a spawn from a template or through a
         * shape gives every column of it, so each must be listed). A later system of the phase whose
         * query or declared access names one of them gets a sync point before it, so it sees
         * the new entities.
         *
         * <pre>{@code
         * .system("respawn").readsResource(DEAD).spawns(pos, vel, hp)
         *     .forEachRange(() -> (int) b.resources().get(DEAD).total(), (job, from, to) -> {
         *         for (int i = from; i < to; i++) {
         *             long e = job.commands().spawn();
         *             job.commands().add(e, pos, new Position(i, 0, 0));
         *         }
         *     })
         * }</pre>
         *
         * A system records only what it declared: any other command throws
         * {@link dev.orrery.ecs.UndeclaredCommandException} naming the system and the
         * component.
         *
         * @param components the components spawned entities may be given; none for bare spawns
         * @return this system builder, for the next declaration
         */
        public SystemBuilder spawns(Component<?>... components) {
            access.effects().spawns(components);
            effectsDeclared = true;
            return this;
        }

        /**
         * Declares that the system's jobs may record adds (and sets) of these components on
         * existing entities, e.g. {@code .query(burning).adds(charred)} before
         * {@code job.commands().add(e, charred)}.
         *
         * @param components the components the system's jobs may add
         * @return this system builder, for the next declaration
         */
        public SystemBuilder adds(Component<?>... components) {
            access.effects().adds(components);
            effectsDeclared = true;
            return this;
        }

        /**
         * Declares that the system's jobs may record removes of these components, e.g.
         * {@code .query(stunned).reads(stun).removes(stun)} before
         * {@code job.commands().remove(e, stun)}.
         *
         * @param components the components the system's jobs may remove
         * @return this system builder, for the next declaration
         */
        public SystemBuilder removes(Component<?>... components) {
            access.effects().removes(components);
            effectsDeclared = true;
            return this;
        }

        /**
         * Declares that the system's jobs may record deferred value writes (set commands,
         * applied at the next sync point) of these components, e.g. {@code .setsLater(hp)}
         * before {@code job.commands().set(target, hp, new Health(0))}. Later readers of them
         * get a sync point before them.
         *
         * @param components the components the system's jobs may set through commands
         * @return this system builder, for the next declaration
         */
        public SystemBuilder setsLater(Component<?>... components) {
            access.effects().setsLater(components);
            effectsDeclared = true;
            return this;
        }

        /**
         * Declares that the system's jobs may record despawns, e.g.
         * {@code .query(living).reads(hp).despawns()} before {@code job.commands().despawn(e)}.
         * Every later system of the phase with a query or component access gets a sync point
         * before it.
         *
         * @return this system builder, for the next declaration
         */
        public SystemBuilder despawns() {
            access.effects().despawns();
            effectsDeclared = true;
            return this;
        }

        /**
         * Declares reads of these components.
         *
         * @param components the components the system's jobs read, in its chunks or by id
         * @return this system builder, for the next declaration
         */
        public SystemBuilder reads(Component<?>... components) {
            access.reads(components);
            componentsDeclared |= components.length > 0;
            return this;
        }

        /**
         * Declares writes (and so reads) of these components.
         *
         * @param components the components the system's jobs write, in its chunks or by id
         * @return this system builder, for the next declaration
         */
        public SystemBuilder writes(Component<?>... components) {
            access.writes(components);
            componentsDeclared |= components.length > 0;
            return this;
        }

        /**
         * Declares reads of these resources.
         *
         * @param resources the keys the system's jobs read through {@code job.resource(key)}
         * @return this system builder, for the next declaration
         */
        public SystemBuilder readsResource(ResourceKey<?>... resources) {
            access.readsResource(resources);
            return this;
        }

        /**
         * Declares writes (and so reads) of these resources.
         *
         * @param resources the keys the system's jobs write through
         *     {@code job.resourceForWrite(key)}
         * @return this system builder, for the next declaration
         */
        public SystemBuilder writesResource(ResourceKey<?>... resources) {
            access.writesResource(resources);
            return this;
        }

        /**
         * Declares reductions into these resources: the system's jobs add to a
         * {@link dev.orrery.scheduler.LongSum} at once through
         * {@code job.add(key, n)} (no lock: a padded slot per worker), and every later reader of
         * the key sees the total. Ordered like a write.
         *
         * <pre>{@code
         * .system("reap").query(living).reads(hp).despawns().reducesResource(DEAD).forEachChunk(job -> {
         *     int[] h = job.chunk().readInts(hpValue);
         *     int n = 0;
         *     for (int i = 0; i < job.chunk().size(); i++) {
         *         if (h[i] <= 0) {
         *             job.commands().despawn(job.chunk().entity(i));
         *             n++;
         *         }
         *     }
         *     job.add(DEAD, n);                                          // once per chunk, not per row
         * })
         * }</pre>
         *
         * @param resources keys of {@link LongSum} resources the system's jobs add to
         * @return this system builder, for the next declaration
         */
        public SystemBuilder reducesResource(ResourceKey<?>... resources) {
            access.reducesResource(resources);
            return this;
        }

        /**
         * Places a sync point before the system: the command buffers of every system before
         * it are applied first, so it sees their spawns, despawns, adds and removes. It then
         * runs after every earlier system of its phase and before every later one. The graph
         * already places one wherever a declared structural effect ({@link #spawns},
         * {@link #despawns}, ...) could be seen; this is the explicit override, for changes
         * the declarations do not show (e.g. a system that reads what an earlier one's
         * spawned entities hold through a resource).
         *
         * @return this system builder, for the next declaration
         */
        public SystemBuilder afterStructuralChanges() {
            access.syncBefore();
            return this;
        }

        /**
         * Declares that the system's jobs read or write components of entities outside the
         * chunk they run on, by id ({@code job.get}, {@code job.getFloat}, {@code job.set},
         * ...). The parallel executor then never fuses it into a chunk pipeline with the
         * systems beside it (consecutive chunk systems over one query, run chunk range by
         * chunk range in one job; see {@link ScheduleExecutor#batching()}): in a pipeline,
         * another chunk's entity may not have reached an earlier system of the pipeline yet.
         * Without it, such an access from a pipeline is refused, naming the system, the
         * component and this declaration. By-id access to the job's own chunk needs nothing.
         * Only a {@code forEachChunk} system takes it: range, level and exclusive systems are
         * never fused into a pipeline, and refuse it when they are finished.
         *
         * @return this system builder, for the next declaration
         */
        public SystemBuilder touchesOtherEntities() {
            this.touchesOtherEntities = true;
            access.touchesOtherEntities();
            return this;
        }

        /**
         * Asks for no automatic sync point before the system: it sees the world as of the last
         * sync point, even where an earlier system of its phase declared structural changes it
         * could see (they are applied at the next sync point, as before declared effects
         * existed). Use it where seeing them a phase later is intended, e.g. projectiles
         * spawned by {@code fire} that start moving next tick:
         *
         * <pre>{@code
         * .system("fire").query(shooters).reads(pos).spawns(pos, vel, projectile).forEachChunk(job -> {
         *     for (int i = 0; i < job.chunk().size(); i++) {
         *         long shot = job.commands().spawn();
         *         job.commands().add(shot, pos, job.get(job.chunk().entity(i), pos));   // at the shooter
         *         job.commands().add(shot, vel, new Velocity(1, 0, 0));
         *         job.commands().add(shot, projectile);
         *     }
         * })
         * .system("move").query(movers).reads(vel).writes(pos).beforeStructuralChanges().forEachChunk(job -> {
         *     float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
         *     for (int i = 0; i < job.chunk().size(); i++) x[i] += v[i];
         * })
         * }</pre>
         *
         * Bevy's counterpart is {@code before_ignore_deferred}. It cannot be combined with
         * {@link #afterStructuralChanges()}.
         *
         * @return this system builder, for the next declaration
         */
        public SystemBuilder beforeStructuralChanges() {
            access.noAutoSync();
            return this;
        }

        /**
         * Declares reads of these event channels: the system's jobs read the events they have
         * not read yet through {@code job.events(key)}. Every writer of a channel earlier in
         * the phase runs before it; see {@link EventChannel} for what it sees when.
         *
         * @param channels the event keys the system's jobs read
         * @return this system builder, for the next declaration
         */
        public SystemBuilder readsEvents(EventKey<?>... channels) {
            access.readsEvents(channels);
            return this;
        }

        /**
         * Declares writes of these event channels: the system's jobs send through
         * {@code job.send(key, event)}, with no lock, merged in (system, chunk, sequence) order.
         *
         * <pre>{@code
         * .system("combat").query(fighters).reads(aim).writesEvents(HITS).forEachChunk(job -> {
         *     long[] target = job.chunk().readLongs(aimTarget);
         *     for (int i = 0; i < job.chunk().size(); i++) job.send(HITS, new Hit(target[i], 5));
         * })
         * .system("apply hits").readsEvents(HITS).writesResource(DAMAGE)
         *     .forEachRange(() -> 1, (job, from, to) -> job.events(HITS)
         *         .forEach(h -> job.resourceForWrite(DAMAGE).merge(h.target(), h.damage(), Integer::sum)))
         * }</pre>
         *
         * @param channels the event keys the system's jobs send on
         * @return this system builder, for the next declaration
         */
        public SystemBuilder writesEvents(EventKey<?>... channels) {
            access.writesEvents(channels);
            return this;
        }

        /**
         * Runs the system only when {@code condition} holds, tested as it would start; its
         * reads become declared resource reads, so the graph orders their writers before it.
         * Called twice, both must hold. A skipped system's jobs do not run (and it reads no
         * events); a sync point before it is applied all the same.
         *
         * <pre>{@code
         * .system("regen").runIf(RunCondition.resource(CLOCK, c -> c.tick() % 10 == 0)).query(q).writes(hp)
         *     .forEachChunk(job -> {
         *         int[] h = job.chunk().writeInts(hpValue);
         *         for (int i = 0; i < job.chunk().size(); i++) h[i]++;
         *     })
         * }</pre>
         *
         * @param condition tested on the thread that runs the schedule, not null
         * @return this system builder, for the next declaration
         */
        public SystemBuilder runIf(RunCondition condition) {
            Objects.requireNonNull(condition, "condition");
            runIf = runIf == null ? condition : runIf.and(condition);
            access.readsResource(condition.reads().toArray(new ResourceKey<?>[0]));
            owner.noteStates(condition);
            return this;
        }

        /**
         * Runs the system when the state machine under {@code key} enters {@code value} (at
         * the run boundary after a {@code request}, or on the first run for the initial value),
         * in a hidden phase before the schedule's phases; see {@link States}.
         *
         * @param <S> the state machine's enum
         * @param key the key of the {@link States} resource, not null
         * @param value the state whose entry runs the system
         * @return this system builder, for the next declaration
         */
        public <S extends Enum<S>> SystemBuilder onEnter(ResourceKey<States<S>> key, S value) {
            return inPhase(owner.transitionPhase(key, value, true));
        }

        /**
         * Runs the system when the state machine under {@code key} leaves {@code value}; see {@link #onEnter}.
         *
         * @param <S> the state machine's enum
         * @param key the key of the {@link States} resource, not null
         * @param value the state whose exit runs the system
         * @return this system builder, for the next declaration
         */
        public <S extends Enum<S>> SystemBuilder onExit(ResourceKey<States<S>> key, S value) {
            return inPhase(owner.transitionPhase(key, value, false));
        }

        /**
         * Runs the system in {@code phase} (default {@link Phase#UPDATE}).
         *
         * @param phase one of the schedule's phases, not null
         * @return this system builder, for the next declaration
         */
        public SystemBuilder inPhase(Phase phase) {
            this.phase = Objects.requireNonNull(phase, "phase");
            return this;
        }

        /**
         * The system runs before these (same or later phase).
         *
         * @param systems names of other systems of the schedule, none null; checked by
         *     {@code build()}
         * @return this system builder, for the next declaration
         */
        public SystemBuilder before(String... systems) {
            before.addAll(names(systems, "before"));
            return this;
        }

        /**
         * The system runs after these (same or earlier phase).
         *
         * @param systems names of other systems of the schedule, none null; checked by
         *     {@code build()}
         * @return this system builder, for the next declaration
         */
        public SystemBuilder after(String... systems) {
            after.addAll(names(systems, "after"));
            return this;
        }

        /** {@code systems} as a list, refused (nothing added) when it or a name in it is null. */
        private List<String> names(String[] systems, String order) {
            Objects.requireNonNull(systems, () -> "system names in " + order + "(...) of system '" + name + "'");
            for (String s : systems) {
                Objects.requireNonNull(s, () -> "system name in " + order + "(...) of system '" + name + "'");
            }
            return Arrays.asList(systems);
        }

        /**
         * The fewest rows (indices, for a range system) per job; below it in all, the system runs
         * inline. This fixes the split in place of the adaptive rule, except for
         * {@link #DEFAULT_MIN_BATCH_ROWS}, which reads as not set and keeps the system adaptive.
         *
         * @param rows the fewest rows or indices per job, 1 or more
         * @return this system builder, for the next declaration
         * @throws IllegalArgumentException naming the system if {@code rows} is below 1
         */
        public SystemBuilder minBatchRows(int rows) {
            if (rows < 1) {
                throw new IllegalArgumentException("system '" + name + "': minBatchRows must be at least 1, got "
                        + rows);
            }
            this.minBatchRows = rows;
            return this;
        }

        /**
         * Finishes an ordinary system whose {@code body} runs once per matching chunk.
         *
         * @param body the system's work on one chunk, not null; run on worker threads, one job per
         *     chunk range, with the chunk's declared access checked
         * @return the schedule builder, for the next system
         * @throws IllegalStateException naming the system when it has no query; call
         *     {@code query(...)} first
         */
        public Builder forEachChunk(ChunkSystem body) {
            if (query == null) {
                throw new IllegalStateException("system '" + name + "' has no query; call query(...) before "
                        + "forEachChunk(...)");
            }
            this.body = Objects.requireNonNull(body, "body");
            owner.systems.add(this);
            return owner;
        }

        /**
         * Finishes a range system: a data-parallel loop over the indices {@code [0, n)}, where
         * {@code n} is what {@code count} returns as the system starts (on the calling thread,
         * after every system it waits for has finished). The indices are split into ranges of
         * at least {@link #minBatchRows} indices, run as jobs like a chunk system's; fewer in
         * all run inline. A range system touches resources, not components: declare them with
         * {@link #readsResource} and {@link #writesResource}, which order it against other
         * systems as usual. It may record structural changes and declare them
         * ({@link #spawns}, ...): "spawn N computed from a resource" is a range system over
         * that count declaring {@code .spawns(components...)}. See {@link RangeSystem}.
         *
         * @param count the number of indices, asked as the system starts, on the thread that runs
         *     the schedule; not null
         * @param body the work on one range of indices, not null; run on worker threads
         * @return the schedule builder, for the next system
         * @throws IllegalStateException if the system has a query, declared component access or
         *     declared {@link #touchesOtherEntities()}
         */
        public Builder forEachRange(IntSupplier count, RangeSystem body) {
            if (query != null) {
                throw new IllegalStateException("range system '" + name + "' cannot have a query; it runs over "
                        + "indices [0, count), so use forEachChunk(...) to visit a query's chunks");
            }
            if (componentsDeclared) {
                throw new IllegalStateException("range system '" + name + "' declared component reads or writes, "
                        + "but a range body gets indices, not chunks; declare only resources "
                        + "(readsResource/writesResource), or make it a forEachChunk system over a query");
            }
            refuseTouchesOtherEntities("range system", "a range system is never fused into one");
            this.rangeCount = Objects.requireNonNull(count, "count");
            this.rangeBody = Objects.requireNonNull(body, "body");
            owner.systems.add(this);
            return owner;
        }

        /**
         * Finishes a level system: a walk of forest relation {@code relation}'s
         * {@link dev.orrery.ecs.Hierarchy} (breadth first, a parent before its
         * children), level by level, each large level split into slot ranges run as jobs on the
         * workers, every job of a level done before the next level starts. The body reads and
         * writes components by id through its job ({@code job.getFloat(e, f)},
         * {@code job.setFloat(e, f, v)}), checked against {@link #reads} and {@link #writes};
         * the relation's marker column is declared read here. Commands it records play back in
         * slot order. See {@link LevelSystem} for the threading contract.
         *
         * <pre>{@code
         * .system("propagate").reads(local).writes(global)
         *     .forEachLevel(world.relations().childOf(), (job, h, from, to) -> {
         *         for (int i = from; i < to; i++) {
         *             int p = h.parentSlot(i);                          // -1 for a root
         *             float x = job.getFloat(h.entity(i), localX) + (p < 0 ? 0 : job.getFloat(h.entity(p), globalX));
         *             job.setFloat(h.entity(i), globalX, x);
         *         }
         *     })
         * }</pre>
         *
         * @param relation an exclusive, acyclic relation of the schedule's world
         *     ({@code childOf()})
         * @param body the work on one range of one level's slots, not null; run on worker threads
         * @return the schedule builder, for the next system
         * @throws IllegalStateException if the system has a query or declared
         *     {@link #touchesOtherEntities()}
         * @throws IllegalArgumentException if {@code relation} is not exclusive and acyclic (a
         *     forest), or belongs to another world
         */
        public Builder forEachLevel(Relation relation, LevelSystem body) {
            Objects.requireNonNull(relation, "relation");
            if (query != null) {
                throw new IllegalStateException("level system '" + name + "' cannot have a query; it walks the "
                        + "hierarchy of " + relation + ", so read other entities by id through its job, or use "
                        + "forEachChunk(...) to visit a query's chunks");
            }
            refuseTouchesOtherEntities("level system", "a level system is never fused into one (it reads other "
                    + "entities by id as it is)");
            if (!relation.exclusive() || !relation.acyclic()) {
                throw new IllegalArgumentException("level system '" + name + "' walks relation " + relation + ", which "
                        + "is " + (relation.exclusive() ? "" : "not exclusive, ") + (relation.acyclic() ? "" : "not acyclic, ")
                        + "so its pairs do not form a forest; register it exclusive and acyclic, as ChildOf is");
            }
            if (owner.world.relations().byName(relation.name()) != relation) {
                throw new IllegalArgumentException("level system '" + name + "' walks relation " + relation
                        + " of another world; use this world's world.relations().register(\"" + relation.name()
                        + "\", ...)");
            }
            access.reads(relation.column());
            this.levelRelation = relation;
            this.levelBody = Objects.requireNonNull(body, "body");
            owner.systems.add(this);
            return owner;
        }

        /**
         * Finishes an exclusive system: {@code body} gets the whole world and runs alone. It
         * changes the structure directly, so it declares no structural effects.
         *
         * @param body the system's work, not null; run alone, on the thread that runs the schedule
         * @return the schedule builder, for the next system
         * @throws IllegalStateException when the system has a query, declared structural effects,
         *     set {@link #minBatchRows} (it is never split into jobs) or declared
         *     {@link #touchesOtherEntities()}
         */
        public Builder exclusive(ExclusiveSystem body) {
            return exclusive(ScheduledSystem.withJob(Objects.requireNonNull(body, "body")));
        }

        /**
         * Finishes an exclusive system whose body also gets a {@link JobContext}: the schedule's
         * events (declared with {@link #readsEvents}/{@link #writesEvents}), its resources and a
         * command buffer applied as soon as the body returns; see {@link ExclusiveJobSystem}.
         *
         * @param body the system's work, not null; run alone, on the thread that runs the schedule
         * @return the schedule builder, for the next system
         * @throws IllegalStateException when the system has a query, declared structural effects,
         *     set {@link #minBatchRows} (it is never split into jobs) or declared
         *     {@link #touchesOtherEntities()}
         */
        public Builder exclusive(ExclusiveJobSystem body) {
            if (query != null) {
                throw new IllegalStateException("exclusive system '" + name + "' cannot have a query; it gets the "
                        + "whole world");
            }
            if (effectsDeclared) {
                throw new IllegalStateException("exclusive system '" + name + "' declared structural effects "
                        + "(spawns/adds/removes/setsLater/despawns), but it changes the world directly and records no "
                        + "commands; drop those declarations, or make it a forEachChunk/forEachRange system");
            }
            if (minBatchRows > 0) {
                throw new IllegalStateException("exclusive system '" + name + "' set minBatchRows(" + minBatchRows
                        + "), but it runs alone on the thread that runs the schedule and is never split into jobs; "
                        + "drop minBatchRows, or make it a forEachChunk/forEachRange system");
            }
            refuseTouchesOtherEntities("exclusive system", "an exclusive system gets the whole world and is never "
                    + "fused into one");
            this.exclusiveBody = Objects.requireNonNull(body, "body");
            access.exclusive();
            owner.systems.add(this);
            return owner;
        }

        /** Refuses {@link #touchesOtherEntities()} on a {@code kind} that no chunk pipeline takes ({@code why}). */
        private void refuseTouchesOtherEntities(String kind, String why) {
            if (touchesOtherEntities) {
                throw new IllegalStateException(kind + " '" + name + "' declared touchesOtherEntities(), but that only "
                        + "keeps a forEachChunk system out of chunk pipelines, and " + why + "; drop "
                        + "touchesOtherEntities()");
            }
        }

        private SystemDeclaration declaration() {
            return new SystemDeclaration(name, access.build(), phase, before, after, runIf);
        }
    }
}
