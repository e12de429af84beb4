package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import org.junit.jupiter.api.Test;

/**
 * A null value given to a call that names one column and takes its value (add, set; on the
 * world and on a command buffer) is refused alike everywhere, naming the call and the fix
 * ({@code add(entity, column)} adds it zeroed), with nothing changed or recorded; so is a null
 * given to a builder's or a template's {@code with(column, value)} ({@code with(column)} adds
 * it zeroed). A shape's slots and a reused builder's {@code set(column, null)} keep null as
 * zero, as their Javadoc says and why.
 */
class NullValueTest {
    record Pos(float x, float y) {
    }

    record Charge(int level) {
    }

    @Test
    void worldAddOfANullValueIsRefusedAsTheCommandBufferRefusesItNotAddedZeroed() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        Component<Charge> charge = w.component(Charge.class, Storage.SPARSE);
        long e = w.spawn();
        long before = w.stateHash();
        NullPointerException table = assertThrows(NullPointerException.class, () -> w.add(e, pos, null));
        assertEquals("world.add(entity, Pos, value): the value is null; to add Pos zeroed (or as a tag), call "
                + "world.add(entity, Pos)", table.getMessage());
        NullPointerException sparse = assertThrows(NullPointerException.class, () -> w.add(e, charge, null));
        assertTrue(sparse.getMessage().contains("world.add(entity, Charge)"), sparse.getMessage());
        assertFalse(w.has(e, pos), "nothing added");
        assertFalse(w.has(e, charge), "nothing added");
        assertEquals(before, w.stateHash());

        CommandBuffer commands = new CommandBuffer(0);
        NullPointerException recorded = assertThrows(NullPointerException.class, () -> commands.add(e, pos, null));
        assertEquals("commands.add(entity, Pos, value): the value is null; to add Pos zeroed (or as a tag), call "
                + "commands.add(entity, Pos)", recorded.getMessage());
        assertTrue(commands.isEmpty(), "nothing recorded");

        w.add(e, pos); // the form the message names: zeroed
        assertEquals(new Pos(0, 0), w.get(e, pos));
    }

    @Test
    void aSetOfANullValueNamesItsCallOnTheWorldAndOnACommandBuffer() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        long e = w.spawn(new Pos(1, 2));
        NullPointerException direct = assertThrows(NullPointerException.class, () -> w.set(e, pos, null));
        assertEquals("world.set(entity, Pos, value): the value is null; give the new value (a record of zeros to "
                + "zero it)", direct.getMessage());
        CommandBuffer commands = new CommandBuffer(0);
        NullPointerException recorded = assertThrows(NullPointerException.class, () -> commands.set(e, pos, null));
        assertTrue(recorded.getMessage().startsWith("commands.set(entity, Pos, value): the value is null; give the new "
                + "value"), recorded.getMessage());
        assertTrue(commands.isEmpty(), "nothing recorded");
        assertEquals(new Pos(1, 2), w.get(e, pos));
    }

    @Test
    void buildersAndShapesKeepNullAsZeroAsTheirJavadocSays() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        Component<Charge> charge = w.component(Charge.class);
        long shaped = w.shape(pos, charge).spawn(null, new Charge(3));
        assertEquals(new Pos(0, 0), w.get(shaped, pos));
        long built = w.entity().with(pos, new Pos(5, 5)).set(pos, null).spawn();
        assertEquals(new Pos(0, 0), w.get(built, pos));
        long templated = w.spawn(Template.named("t").with(pos).with(charge, new Charge(2)).build());
        assertEquals(new Pos(0, 0), w.get(templated, pos));
        assertEquals(new Charge(2), w.get(templated, charge));
    }

    record Label(int code) {
    }

    @Test
    void aBuilderWithANullValueIsRefusedNamingTheFormThatAddsTheColumnZeroed() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        Component<Charge> charge = w.component(Charge.class, Storage.SPARSE);
        long before = w.stateHash();
        EntityBuilder b = w.entity().with(charge, new Charge(1));
        NullPointerException table = assertThrows(NullPointerException.class, () -> b.with(pos, null));
        assertEquals("entity().with(Pos, value): the value is null; to add Pos zeroed (or as a tag), call "
                + "entity().with(Pos)", table.getMessage());
        NullPointerException sparse = assertThrows(NullPointerException.class,
                () -> w.entity().with(pos).with(charge, null));
        assertTrue(sparse.getMessage().contains("call entity().with(Charge)"), sparse.getMessage());
        assertEquals(before, w.stateHash(), "nothing spawned");
        long e = b.spawn(); // the refused with added nothing: the builder still holds only Charge
        assertFalse(w.has(e, pos));
        assertEquals(new Charge(1), w.get(e, charge));
        long zeroed = w.entity().with(pos).spawn(); // the form the message names
        assertEquals(new Pos(0, 0), w.get(zeroed, pos));
    }

    @Test
    void aTemplateWithANullValueIsRefusedNamingTheTemplateAndTheFormWithoutAValue() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        Component<Label> label = w.component(Label.class);
        Template.Builder crate = Template.named("Crate").with(pos, new Pos(1, 1));
        NullPointerException value = assertThrows(NullPointerException.class, () -> crate.with(label, null));
        assertEquals("Template.named(\"Crate\").with(Label, value): the value is null; to add Label zeroed (or as a "
                + "tag), call Template.named(\"Crate\").with(Label)", value.getMessage());
        Template built = crate.build();
        assertEquals(1, built.size(), "the refused instance is not in the template");
        Template zeroed = Template.named("Crate").with(pos, new Pos(1, 1)).with(label).build();
        long e = w.spawn(zeroed);
        assertEquals(new Label(0), w.get(e, label), "with(column) adds it zeroed");
    }

    /**
     * A null value for a relation's marker column: the fix a null refusal names elsewhere
     * (the form without a value, or a record of zeros) is refused too for that column, as
     * the relation store keeps it; the message names the relation store's calls instead.
     */
    @Test
    void aNullValueForARelationsColumnNamesTheRelationStoreNotAFormThatIsRefusedToo() {
        World w = new World();
        Component<?> childOf = w.relations().childOf().column();
        @SuppressWarnings("unchecked")
        Component<Object> marker = (Component<Object>) childOf;
        long parent = w.spawn();
        long e = w.spawn();
        w.relations().add(e, w.relations().childOf(), parent);
        long before = w.stateHash();
        CommandBuffer commands = new CommandBuffer(0);
        Template.Builder template = Template.named("Crate");
        Throwable[] refused = {
            assertThrows(NullPointerException.class, () -> w.add(e, marker, null)),
            assertThrows(NullPointerException.class, () -> w.set(e, marker, null)),
            assertThrows(NullPointerException.class, () -> commands.add(e, marker, null)),
            assertThrows(NullPointerException.class, () -> commands.set(e, marker, null)),
            assertThrows(NullPointerException.class, () -> w.entity().with(marker, null)),
            assertThrows(NullPointerException.class, () -> template.with(marker, null)),
        };
        for (Throwable t : refused) {
            String m = t.getMessage();
            assertTrue(m.contains("the value is null; ChildOf is a relation's column, kept by the relation store; "
                    + "change pairs with world.relations().add(holder, ChildOf, target)"), m);
            assertFalse(m.contains("zero"), "the forms without a value or with zeros are refused too: " + m);
        }
        IllegalArgumentException zeroed = assertThrows(IllegalArgumentException.class, () -> w.add(e, childOf));
        assertTrue(zeroed.getMessage().contains("relation's column"), zeroed.getMessage());
        assertTrue(commands.isEmpty(), "nothing recorded");
        assertEquals(before, w.stateHash());
    }
}
