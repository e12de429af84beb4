package dev.orrery.bench.hierarchy;

/**
 * A tag with no fields; the fragmenting emulation registers it under 14 or more instance
 * names and gives each parent's children a distinct combination of them, so each parent's
 * children get an archetype of their own, as a design with one archetype per
 * {@code (ChildOf, parent)} pair lays them out.
 */
public record Tag() {
}
