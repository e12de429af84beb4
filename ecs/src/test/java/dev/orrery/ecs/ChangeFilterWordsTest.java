package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import org.junit.jupiter.api.Test;

/**
 * What messages say about a query with a change filter and about an unlogged removal, found by
 * a newcomer's walk of docs/reacting-to-change.md: the chapter's own {@code with(health)
 * .changed(health)} was named "query with [Health, Health]" (the filter's implied {@code with}
 * listed twice and the filter not at all), and reading removals that are not logged told the
 * reader to call {@code world.changes().trackRemoved(...)}, a method no caller outside the
 * package can reach, where the book and the API say {@code world.trackRemoved(...)}.
 */
class ChangeFilterWordsTest {
    record Health(int hp) {}
    record Pos(float x) {}

    @Test
    void aQueryWithAChangeFilterIsNamedWithItsFiltersAndEachColumnOnce() {
        World w = new World();
        Component<Health> health = w.component(Health.class);
        Component<Pos> pos = w.component(Pos.class);
        assertEquals("query with [Health] changed [Health]",
                EcsInternals.description(w.query().with(health).changed(health).build()));
        assertEquals("query with [Pos, Health] added [Health]",
                EcsInternals.description(w.query().with(pos).added(health).build()));
        assertEquals("query with [Pos, Health] added [Pos] changed [Health]",
                EcsInternals.description(w.query().with(pos).added(pos).changed(health).build()));
        assertEquals("query with [Pos]", EcsInternals.description(w.query().with(pos).build()));
    }

    @Test
    void readingRemovalsThatAreNotLoggedNamesThePublicCall() {
        World w = new World();
        Component<Health> health = w.component(Health.class);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.changes().removed(health));
        assertTrue(e.getMessage().contains("call world.trackRemoved(Health) during set-up"), e.getMessage());
        assertFalse(e.getMessage().contains("changes()"), e.getMessage());
    }
}
