/**
 * Orrery's explorer: attaches to a running {@code Simulation} with one call and serves, on a
 * loopback HTTP port, a page and a JSON API over it: tick figures over time (a ring of the
 * last ticks and seconds), per-system time, the schedule graph, archetypes, entity lists per
 * archetype and per query, a query tool, search, the {@code ChildOf} tree, one entity's
 * fields, named instances, resources, an optional live map, and edits that go through the
 * application's {@code EditSink} with their outcomes. The world is read only at a safe point
 * on the tick thread, within a budget per tick; the server refuses foreign hosts and
 * cross-origin changes, bounds its threads and streams, and has deadlines. Off unless
 * attached; the engine holds no web code.
 *
 * <p>Neighbours: it depends on the engine (and through it the scheduler and the ecs) and the
 * JDK's {@code java.management}; its HTTP server is its own, on plain sockets. uPlot and
 * viz.js come from their WebJars on the class path.
 */
module dev.orrery.explorer {
    requires transitive dev.orrery.engine;
    requires java.management;

    exports dev.orrery.explorer;
}
