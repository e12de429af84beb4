/*
 * The source root of the orrery-ecs module (the unnamed package holds no types: Java allows
 * no package declaration here, so this is a plain comment; module-info.java beside it carries
 * the Javadoc and the export list).
 *
 * What it holds: the entity-component system. dev.orrery.ecs is the facade (World,
 * EntityBuilder, Shape); ecs.entity and ecs.component define ids, components and fields;
 * ecs.query gives queries and checked chunk views; ecs.command records and plays back
 * structural changes (command buffers, declared StructuralEffects, per-kind outcomes);
 * ecs.prototype is the named-instance index; ecs.snapshot saves and restores a world.
 * ecs.archetype and ecs.storage hold the raw storage and are exported only to the
 * scheduler, ecs.ownership (assertion-backed checks) to the scheduler too; ecs.hash is not
 * exported at all.
 *
 * Neighbours: it depends only on fastutil. orrery-scheduler builds on it (systems run over
 * a World's queries and record into its command buffers), and orrery-engine builds on the
 * scheduler.
 */
