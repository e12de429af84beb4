package dev.orrery.ecs.prototype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.component.Storage;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link NamedInstances#instancesOf}, which a snapshot calls for every row: the chain it
 * returns (table instances in registration order, then sparse ones by column id) and what it
 * consults to build it, in a world of many columns with a few sparse ones among them.
 */
class InstancesOfTest {
    record Value(int v) {
    }

    private final ComponentRegistry registry = new ComponentRegistry();
    private final Component<?>[] columns = new Component<?>[200];
    private final Map<Integer, Set<Component<?>>> held = new HashMap<>();
    private int holdsCalls;

    // No @Override on heldBy: the sets answer it as the world's SparseColumns does.
    private final NamedInstances names = new NamedInstances(registry, new NamedInstances.SparseMembers() {
        @Override
        public boolean holds(int entity, Component<?> column) {
            holdsCalls++;
            return held.getOrDefault(entity, Set.of()).contains(column);
        }

        public int heldBy(int entity) {
            return held.getOrDefault(entity, Set.of()).size();
        }
    });

    InstancesOfTest() {
        ComponentType<Value> t = registry.valueType(Value.class);
        for (int id = 0; id < columns.length; id++) {
            boolean sparse = id == 3 || id == 120 || id == 199;
            columns[id] = registry.column(t, "C" + id, sparse ? Storage.SPARSE : Storage.TABLE);
        }
    }

    private void holdSparse(int entity, int... ids) {
        for (int id : ids) {
            held.computeIfAbsent(entity, k -> new HashSet<>()).add(columns[id]);
        }
    }

    @Test
    void shouldListTableInstancesInRegistrationOrderThenSparseOnesById() {
        names.spawned(7, new Component<?>[] {columns[150], columns[2], columns[60]});
        holdSparse(7, 199, 3); // added in that order; listed by id
        assertArrayEquals(new int[] {150, 2, 60, 3, 199}, names.instancesOf(7));
        assertEquals(List.of("C150", "C2", "C60", "C3", "C199"), names.namesOf(7));

        names.spawned(8, new Component<?>[] {columns[0]});
        assertArrayEquals(new int[] {0}, names.instancesOf(8), "no sparse instance: the chain alone");
        holdSparse(9, 120);
        assertArrayEquals(new int[] {120}, names.instancesOf(9), "sparse instances only");
        assertArrayEquals(new int[0], names.instancesOf(10), "an entity index never used holds nothing");
    }

    @Test
    void shouldAskTheSparseSetsOnlyForWhatTheEntityCanHold() {
        names.spawned(1, new Component<?>[] {columns[10], columns[11]});
        holdsCalls = 0;
        assertArrayEquals(new int[] {10, 11}, names.instancesOf(1));
        assertEquals(0, holdsCalls, "an entity holding no sparse column asks no sparse set");

        holdSparse(1, 3);
        holdsCalls = 0;
        assertArrayEquals(new int[] {10, 11, 3}, names.instancesOf(1));
        assertEquals(1, holdsCalls, "the walk over the sparse columns stops at the last one the entity holds");

        holdSparse(1, 120, 199);
        holdsCalls = 0;
        assertArrayEquals(new int[] {10, 11, 3, 120, 199}, names.instancesOf(1));
        assertEquals(3, holdsCalls, "each of the world's three sparse columns asked once");
    }
}
