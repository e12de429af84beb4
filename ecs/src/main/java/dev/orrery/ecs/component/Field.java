package dev.orrery.ecs.component;

/**
 * A pre-resolved handle to one field of one column ({@code RenderData:Fog.density}). Chunk
 * views hand out the field's primitive array for it, and property access reads and writes
 * through it with no name look-up and no reflection.
 */
public final class Field {
    private final Component<?> component;
    private final int index;
    private final FieldType type;

    Field(Component<?> component, int index) {
        this.component = component;
        this.index = index;
        this.type = component.type().fieldType(index);
    }

    /**
     * The column this field belongs to.
     *
     * @return the column, never null
     */
    public Component<?> component() {
        return component;
    }

    /**
     * The field's position in the record.
     *
     * @return the position in the record's declaration order, from 0
     */
    public int index() {
        return index;
    }

    /**
     * The field's storage type.
     *
     * @return the primitive type stored (or {@code OBJECT} for a reference column's value); it
     *     picks the chunk accessor ({@code readFloats} for {@code FLOAT})
     */
    public FieldType type() {
        return type;
    }

    /**
     * The field's name in the record.
     *
     * @return the record component's name ("density"; "value" for a reference column)
     */
    public String name() {
        return component.type().fieldName(index);
    }

    @Override
    public String toString() {
        // A relation's target field as properties name it ("ChildOf.target"), not "(ChildOf, *).target".
        return (component.isRelationMarker() ? component.name() : component.toString()) + "." + name();
    }
}
