/**
 * Orrery's entity-component system: entity ids, components, queries, command buffers, the
 * prototype index and snapshots.
 *
 * <p>The facade (exported to everyone) is what a user touches: {@code World},
 * {@code EntityBuilder} and {@code Shape}, components and fields (with their storage, table
 * or sparse, and their validated ranges), queries and checked chunk views, command
 * buffers, templates and property access, snapshots. Each package below it is exported only to
 * the Orrery modules that use it, so user code on the module path cannot reach, say, a
 * chunk's raw arrays round the declared access checks: to the scheduler and the engine the
 * storage (archetypes and chunks, the entity location table, the structure lock), the row
 * work, and the door into the facade's package-private state; to the scheduler alone the
 * declared-access data and the assertion-backed checks (owner threads, the debug-check
 * switch, the strict property reader); to the engine alone the prototype index (its tests
 * read it). The state hash ({@code dev.orrery.ecs.hash}) is exported to no module: only the
 * ecs's own packages use it.
 *
 * <p>Component records are read and built reflectively: a user module opens the packages
 * holding its component records to {@code dev.orrery.ecs} ({@code opens my.game.components
 * to dev.orrery.ecs;}).
 *
 * <p>Neighbours: it depends only on fastutil; {@code dev.orrery.scheduler} runs systems over a
 * world's queries and command buffers, and {@code dev.orrery.engine} builds its tick loop on
 * the scheduler.
 */
module dev.orrery.ecs {
    requires it.unimi.dsi.fastutil.core;

    exports dev.orrery.ecs;
    exports dev.orrery.ecs.component;

    // Each package to the modules that use it (what the compiler asks: a call through a type
    // counts though its package is never imported). The engine's archetype, prototype and
    // storage uses are its tests' (they compile inside the engine's module).
    exports dev.orrery.ecs.access to dev.orrery.scheduler;
    exports dev.orrery.ecs.internal to dev.orrery.scheduler, dev.orrery.engine;
    exports dev.orrery.ecs.archetype to dev.orrery.scheduler, dev.orrery.engine;
    exports dev.orrery.ecs.ownership to dev.orrery.scheduler;
    exports dev.orrery.ecs.prototype to dev.orrery.engine;
    exports dev.orrery.ecs.storage to dev.orrery.scheduler, dev.orrery.engine;
    exports dev.orrery.ecs.structure to dev.orrery.scheduler, dev.orrery.engine;
}
