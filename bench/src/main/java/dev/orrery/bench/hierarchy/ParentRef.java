package dev.orrery.bench.hierarchy;

import dev.orrery.ecs.component.EntityRef;

/**
 * The fragmenting emulation's link to the parent: what a Flecs-style design keeps in the
 * table's type (one archetype per parent); here a plain column beside the per-parent tags.
 *
 * @param parent the parent entity
 */
public record ParentRef(@EntityRef long parent) {
}
