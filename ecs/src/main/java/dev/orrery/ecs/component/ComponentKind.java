package dev.orrery.ecs.component;

/** How a component type is stored. */
public enum ComponentKind {
    /** A record of primitive fields, stored as one primitive array per field per chunk. */
    VALUE,
    /** Any object, stored in one object array per chunk. */
    REFERENCE,
    /** A marker with no data and no storage: only archetype membership. */
    TAG
}
