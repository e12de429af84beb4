package dev.orrery.scheduler.executor;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.flow.PhaseRule;
import dev.orrery.scheduler.graph.SystemGraph;
import java.util.ArrayList;
import java.util.List;

/**
 * What an executor runs: a world, the dependency graph of its systems, and each system's
 * query and body, indexed by graph position. Built by the {@code Schedule} facade.
 *
 * <p><b>Threading:</b> immutable; an executor reads it from its workers after publishing
 * it at construction.
 */
public final class ExecutionPlan {
    private final World world;
    private final SystemGraph graph;
    private final ScheduledSystem[] systems;
    private final Resources resources;
    private final List<ResourceKey<?>> stateMachines;

    /**
     * A plan over {@code world} with an empty resource store; {@code byPosition.get(i)} is the
     * system at graph position {@code i}.
     *
     * @throws IllegalArgumentException if the lists disagree, a query belongs to another world, or a query
     *     filters by added/changed of a column its system declares no read or write of
     */
    public ExecutionPlan(World world, SystemGraph graph, List<ScheduledSystem> byPosition) {
        this(world, graph, byPosition, new Resources());
    }

    /**
     * A plan over {@code world} whose jobs reach {@code resources} through their
     * {@code JobContext}; {@code byPosition.get(i)} is the system at graph position {@code i}.
     *
     * @throws IllegalArgumentException if the lists disagree, a query belongs to another world, or a query
     *     filters by added/changed of a column its system declares no read or write of
     */
    public ExecutionPlan(World world, SystemGraph graph, List<ScheduledSystem> byPosition, Resources resources) {
        this(world, graph, byPosition, resources, List.of());
    }

    /**
     * A plan as {@link #ExecutionPlan(World, SystemGraph, List, Resources)} describes, which
     * also applies the requested transitions of the {@code dev.orrery.scheduler.States}
     * machines under {@code stateMachines} at each run boundary, in that order, then those
     * of the graph's on-enter/on-exit phases (in phase order), then every other machine in
     * {@code resources}: one only requested and read by systems moves too.
     *
     * @throws IllegalArgumentException if the lists disagree, a query belongs to another world, or a query
     *     filters by added/changed of a column its system declares no read or write of
     */
    public ExecutionPlan(World world, SystemGraph graph, List<ScheduledSystem> byPosition, Resources resources,
            List<ResourceKey<?>> stateMachines) {
        this.resources = java.util.Objects.requireNonNull(resources, "resources");
        this.stateMachines = machines(graph, resources, stateMachines);
        this.world = world;
        this.graph = graph;
        this.systems = byPosition.toArray(new ScheduledSystem[0]);
        if (systems.length != graph.size()) {
            throw new IllegalArgumentException("graph has " + graph.size() + " systems but " + systems.length
                    + " were given");
        }
        for (int i = 0; i < systems.length; i++) {
            if (systems[i].declaration() != graph.system(i)) {
                throw new IllegalArgumentException("system '" + systems[i].name() + "' is not at graph position "
                        + i + "; list systems in graph order");
            }
            if (systems[i].query() != null && !world.owns(systems[i].query())) {
                throw new IllegalArgumentException("system '" + systems[i].name() + "' queries another world; "
                        + "build its query from the schedule's world");
            }
            checkFilterAccess(systems[i]);
            checkOwnColumns(systems[i]);
        }
    }

    /**
     * Every component a system declares (reads, writes, structural effects) must be the
     * schedule's world's: another world's handle has an id that means another column here, so
     * the access checks and the graph's ordering would guard the wrong one.
     */
    private void checkOwnColumns(ScheduledSystem system) {
        var access = system.declaration().access();
        for (List<Component<?>> declared : List.of(access.reads(), access.writes(),
                access.effects().touchedComponents())) {
            for (Component<?> c : declared) {
                if (!EcsInternals.registry(world).owns(c)) {
                    throw new IllegalArgumentException("system '" + system.name() + "' declares component " + c
                            + ", which another world registered; declare this world's handle ("
                            + EcsInternals.handleOf(c) + ")");
                }
            }
        }
    }

    /**
     * A change filter reads versions that the writers of its columns stamp, so the graph
     * must order the system against them: each filtered column needs a declared read or write.
     */
    private void checkFilterAccess(ScheduledSystem system) {
        Query q = system.query();
        if (q == null || !EcsInternals.hasChangeFilter(q)) {
            return;
        }
        for (int id : EcsInternals.changeFilterColumnIds(q)) {
            Component<?> c = EcsInternals.registry(world).column(id);
            if (!system.declaration().access().canRead(c)) { // a declared write counts as a read
                throw new IllegalArgumentException("system '" + system.name() + "' filters its query by added/changed "
                        + "of " + c + " but declares no read or write of it; declare reads(" + c + "), so the "
                        + "schedule orders it after the systems that change it");
            }
        }
    }

    /** The world the systems run over. */
    public World world() {
        return world;
    }

    /** The resource store the systems' jobs read, write and reduce into. */
    public Resources resources() {
        return resources;
    }

    /**
     * {@code named}, then the machines of the graph's transition phases in phase order (as
     * the executor would add them), then every other {@code States} in the store: without
     * them a machine only requested and read by systems would keep its request forever.
     */
    private static List<ResourceKey<?>> machines(SystemGraph graph, Resources resources, List<ResourceKey<?>> named) {
        List<ResourceKey<?>> machines = new ArrayList<>(named);
        for (int p = 0; p < graph.phases().size(); p++) {
            PhaseRule r = graph.phaseRule(p);
            if (r.transition() && !machines.contains(r.state())) {
                machines.add(r.state());
            }
        }
        for (ResourceKey<?> k : resources.keys()) {
            if (resources.value(k) instanceof States<?> && !machines.contains(k)) {
                machines.add(k);
            }
        }
        return List.copyOf(machines);
    }

    /** The keys of the state machines whose transitions the executors apply, in order. */
    public List<ResourceKey<?>> stateMachines() {
        return stateMachines;
    }

    /** The dependency graph. */
    public SystemGraph graph() {
        return graph;
    }

    /** Number of systems. */
    public int size() {
        return systems.length;
    }

    /** The system at graph position {@code position}. */
    public ScheduledSystem system(int position) {
        return systems[position];
    }
}
