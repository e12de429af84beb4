/**
 * Orrery's explorer: attaches to a running {@code Simulation} with one call and serves, on an
 * HTTP port (loopback unless the options bind another address), a page and a JSON API over
 * it: tick figures over time (a ring of the last ticks and seconds, also pushed to the page
 * as Server-Sent Events), per-system time, the schedule graph, archetypes, entity lists per
 * archetype and per query, a query tool, search, the {@code ChildOf} tree, one entity's
 * fields, named instances, resources, an optional live map, edits that go through the
 * application's {@code EditSink} with their outcomes, and, given a recording, the world at an
 * earlier tick and the diff of two ticks. The world is read only at a safe point on the tick
 * thread, within a budget per tick; the server refuses foreign hosts, and changes without the
 * session's token or from another origin, bounds its threads, queue, streams and request
 * sizes, and has deadlines for reading a request and writing an answer. Off unless attached;
 * the engine holds no web code.
 *
 * <p>Threads, all daemons of its own: one that accepts connections, a bounded pool that reads
 * and answers requests, one that closes connections past their deadlines, one that writes the
 * event streams and samples the per-second figures, and, with a recording, one that replays
 * it (ended when idle); on the tick thread it runs only its end-of-tick hook.
 *
 * <p>Neighbours: it depends on the engine (and through it the scheduler and the ecs) and the
 * JDK's {@code java.management} (the heap and collector figures); its HTTP server is its own,
 * on NIO socket channels (blocking reads and writes on the request threads, non-blocking
 * writes on the event-stream thread). uPlot and viz.js come from their WebJars on the class
 * path.
 */
module dev.orrery.explorer {
    requires transitive dev.orrery.engine;
    requires java.management;

    exports dev.orrery.explorer;
}
