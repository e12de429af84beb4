package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.access.StructuralEffects;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import org.junit.jupiter.api.Test;

/**
 * A relation's marker column is named in messages as users write about it, the wildcard pair
 * {@code (ChildOf, *)} (its field as properties name it, {@code ChildOf.target}), never by
 * its record type {@code Pair}, which is package-private: no user can name it.
 */
class RelationColumnNamesTest {
    record Pos(float x) {
    }

    @Test
    void aQueryWithARelationTermAndRefusalsNamingARelationColumnPrintNoPair() {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Relation childOf = world.relations().childOf();
        long parent = world.spawn(new Pos(0));

        Query children = world.query().with(pos, childOf.column()).build();
        assertEquals("query with [Pos, (ChildOf, *)]", EcsInternals.description(children));
        Query crew = world.query().with(pos).pair(childOf, parent).build();
        assertEquals("query with [Pos, (ChildOf, *)] pair (ChildOf, " + dev.orrery.ecs.component.Entity.toString(parent)
                + ")", EcsInternals.description(crew));
        assertEquals("ChildOf.target", childOf.target().toString());

        long orphan = world.spawn(new Pos(1));
        String lacks = assertThrows(IllegalArgumentException.class, () -> world.get(orphan, childOf.column())).getMessage();
        assertTrue(lacks.contains("(ChildOf, *)"), lacks);

        CommandBuffer commands = new CommandBuffer(0);
        commands.declareEffects(StructuralEffects.builder("adopter").build());
        String undeclared = assertThrows(UndeclaredCommandException.class,
                () -> commands.addPair(orphan, childOf, parent)).getMessage();
        assertTrue(undeclared.contains("of component (ChildOf, *)") && undeclared.contains(".adds(childOf.column())"),
                undeclared);

        for (String m : new String[] {EcsInternals.description(children), EcsInternals.description(crew),
                childOf.target().toString(), lacks, undeclared}) {
            assertFalse(m.contains("Pair"), m);
        }
    }

    @Test
    void anUndeclaredReadOfARelationColumnNamesTheDeclarationAsJavaWritesIt() {
        Relation childOf = new World().relations().childOf();
        String read = new UndeclaredAccessException("wean", childOf.column(), false).getMessage();
        assertTrue(read.contains("read component (ChildOf, *)") && read.contains("add .reads(childOf.column())"), read);
        String changed = UndeclaredAccessException.changeTest("wean", childOf.column()).getMessage();
        assertTrue(changed.contains("add .reads(childOf.column())"), changed);
        String write = new UndeclaredAccessException("wean", childOf.column(), true).getMessage();
        assertTrue(write.contains("job.commands().addPair(holder, childOf, target)") && write.contains(".adds(childOf.column())")
                && !write.contains(".writes("), write);
        for (String m : new String[] {read, changed, write}) {
            assertFalse(m.contains("((ChildOf, *))"), m);
        }
    }
}
