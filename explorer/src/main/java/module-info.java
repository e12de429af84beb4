/**
 * Orrery's explorer: attaches to a running {@code Simulation} with one call and serves, on a
 * loopback HTTP port, a small JSON API over it (tick, rate, tick-time percentiles, per-system
 * time, the schedule graph, archetypes, one entity's fields, named instances, resources with a
 * codec), a Server-Sent Events stream of per-tick figures, and a page drawing them. The world
 * is read only at a safe point on the tick thread; edits, when enabled, are inputs handed to
 * the application's {@code EditSink}. Off unless attached; the engine holds no web code.
 */
module dev.orrery.explorer {
    requires transitive dev.orrery.engine;
    requires jdk.httpserver;

    exports dev.orrery.explorer;
}
