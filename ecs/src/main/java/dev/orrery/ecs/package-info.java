/**
 * Layer: facade (exported to every module). The ECS a program uses: {@link dev.orrery.ecs.World}
 * (entities, components, structural calls, by-id access, state hashes), queries and their checked
 * {@link dev.orrery.ecs.ChunkView}, {@link dev.orrery.ecs.CommandBuffer}s for structural changes
 * recorded now and applied later, relations ({@link dev.orrery.ecs.Relations}, with
 * {@code ChildOf} built in) and {@link dev.orrery.ecs.Hierarchy} walks, observers
 * ({@link dev.orrery.ecs.ComponentObservers}), removal logs, snapshots
 * ({@link dev.orrery.ecs.WorldSnapshot}). Components, fields and entity ids are in
 * {@code dev.orrery.ecs.component}; with this package that is all of the ECS a program imports.
 *
 * <p><b>Spawning, four ways, one world.</b> {@code world.spawn(values...)} for an entity made
 * now and then from record values; {@link dev.orrery.ecs.EntityBuilder} ({@code world.entity()})
 * for named instances or many identical entities in bulk; a {@link dev.orrery.ecs.Shape}
 * ({@code world.shape(columns...)}) prepared once for an entity made often (projectiles,
 * pick-ups), with field writes and no records; a {@link dev.orrery.ecs.Template} for a named,
 * reusable list of instances and values (a prefab), also spawnable from a command buffer.
 *
 * <p><b>Reading and writing fields, three ways.</b> In a loop, a {@link
 * dev.orrery.ecs.component.Field} names a field and the chunk view hands out its array. By
 * entity id, the world's {@code getFloat(e, field)} and {@code setFloat(e, field, v)} (checked
 * against the field's rules; {@link dev.orrery.ecs.FieldAccess} is that interface, and
 * {@code world.unvalidated()} the same without the rules, for trusted code). By name, a
 * {@link dev.orrery.ecs.PropertyHandle} ({@code world.property("Fog", "density")}) resolves a
 * named instance per entity, for scripts and tools.
 *
 * <p><b>The module's layers</b>, each importing only the ones below it: leaves
 * ({@code component}, {@code hash}, {@code ownership}, {@code access}); storage
 * ({@code archetype}, {@code storage}); structure ({@code prototype}, {@code structure}: the
 * row work, reporting to a small listener interface); this facade, which also holds the
 * features that read its package-private state (command playback, change tracking and
 * observers, relations, snapshot sections, the state-hash walk), because package-private is
 * the one seal Java keeps on the class path; and above it {@code internal}, the door through
 * which only the scheduler and the engine reach that state. {@code EcsLayersTest} checks the
 * order on the compiled classes.
 *
 * <p>Threading: a world belongs to one thread at a time (see {@link dev.orrery.ecs.World});
 * this module starts no threads. Its few synchronised fields are named where they live: the
 * run claim ({@code ScheduleRunClaim}, a volatile taken by compare-and-set), the label of the
 * observer hook firing (a release store a watchdog reads), the hash walk's reusable scratch
 * (claimed by compare-and-set) and the per-record-class access cache (a lock, shared by every
 * world). The scheduler supplies the happens-before edges between the owning thread and its
 * workers.
 */
package dev.orrery.ecs;
