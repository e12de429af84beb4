/**
 * Entity ids: {@link dev.orrery.ecs.entity.Entity} packs an index (low 32 bits) and a
 * generation (high 32 bits) into a {@code long}, and
 * {@link dev.orrery.ecs.entity.StaleEntityException} reports an id whose generation is no
 * longer live. The table that maps indices to locations is internal, in
 * {@code ecs.storage}.
 *
 * <p>Neighbours: imports nothing else from the module. Facade: exported to every module.
 * Stateless: safe from any thread.
 */
package dev.orrery.ecs.entity;
