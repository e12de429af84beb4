package dev.orrery.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A resource of a generic type is keyed by its raw class, without a wrapper or an unchecked cast. */
class GenericResourceKeyTest {
    static final ResourceKey<Map<Long, Integer>> SCORES = ResourceKey.of("scores", Map.class);
    static final ResourceKey<List<String>> LOG = ResourceKey.of("log", List.class);

    @Test
    void shouldKeyAGenericResourceAndHandItBackTyped() {
        World world = new World(256);
        Map<Long, Integer> scores = new HashMap<>();
        Schedule schedule = Schedule.builder(world).resource(SCORES, scores)
                .system("score").writesResource(SCORES).forEachRange(() -> 1, (job, from, to) -> {
                    Map<Long, Integer> s = job.resourceForWrite(SCORES); // typed: no cast
                    s.merge(7L, 1, Integer::sum);
                })
                .build();
        try (ScheduleExecutor ex = schedule.executor(1)) {
            ex.run();
            ex.run();
        }
        assertEquals(Map.of(7L, 2), schedule.resources().get(SCORES));
        assertEquals(Map.class, SCORES.type());
    }

    @Test
    void shouldStillCheckValuesAgainstTheRawClass() {
        Resources resources = new Resources();
        @SuppressWarnings({"unchecked", "rawtypes"})
        ResourceKey<Object> wrong = (ResourceKey) LOG;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> resources.put(wrong, "not a list"));
        assertTrue(e.getMessage().contains("log") && e.getMessage().contains("java.util.List"), e.getMessage());
    }
}
