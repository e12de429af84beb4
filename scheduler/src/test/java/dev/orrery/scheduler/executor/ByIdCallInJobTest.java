package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A newcomer's typed by-id call on the world from a job ({@code world.getFloat(e, field)}
 * instead of {@code job.getFloat(e, field)}) is refused naming the call made, not
 * {@code world.get}, and the JobContext call that does the same under the declarations.
 */
class ByIdCallInJobTest {
    record Stats(float f, int i, long l, double d) {
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldNameTheTypedCallMadeAndTheJobsCallToUseInstead(int workers) {
        World w = new World(256);
        Component<Stats> stats = w.component(Stats.class);
        for (int i = 0; i < 100; i++) {
            w.spawn(new Stats(i, i, i, i));
        }
        Field f = stats.field("f"), i = stats.field("i"), l = stats.field("l"), d = stats.field("d");
        Query q = w.query().with(stats).build();
        Map<String, LongConsumer> calls = new LinkedHashMap<>();
        calls.put("getFloat", e -> w.getFloat(e, f));
        calls.put("getInt", e -> w.getInt(e, i));
        calls.put("getLong", e -> w.getLong(e, l));
        calls.put("getDouble", e -> w.getDouble(e, d));
        calls.put("getBits", e -> w.getBits(e, f));
        calls.put("setFloat", e -> w.setFloat(e, f, 1));
        calls.put("setInt", e -> w.setInt(e, i, 1));
        calls.put("setLong", e -> w.setLong(e, l, 1));
        calls.put("setDouble", e -> w.setDouble(e, d, 1));
        calls.put("setBits", e -> w.setBits(e, d, 1));
        Map<String, String> fixes = new LinkedHashMap<>();
        fixes.put("getFloat", "job.getFloat(entity, Stats.f)");
        fixes.put("getInt", "job.getInt(entity, Stats.i)");
        fixes.put("getLong", "job.getLong(entity, Stats.l)");
        fixes.put("getDouble", "job.getDouble(entity, Stats.d)");
        fixes.put("getBits", "job.getFloat(entity, Stats.f)");
        fixes.put("setFloat", "job.setFloat(entity, Stats.f, value)");
        fixes.put("setInt", "job.setInt(entity, Stats.i, value)");
        fixes.put("setLong", "job.setLong(entity, Stats.l, value)");
        fixes.put("setDouble", "job.setDouble(entity, Stats.d, value)");
        fixes.put("setBits", "job.setDouble(entity, Stats.d, value)");
        long before = w.stateHash();
        for (Map.Entry<String, LongConsumer> call : calls.entrySet()) {
            String name = call.getKey();
            Schedule schedule = Schedule.builder(w).minBatchRows(16)
                    .system("direct " + name).query(q).writes(stats)
                    .forEachChunk(job -> call.getValue().accept(job.chunk().entity(0)))
                    .build();
            try (ScheduleExecutor executor = schedule.executor(workers)) {
                SystemFailedException e = assertThrows(SystemFailedException.class, executor::run, name);
                String m = e.getCause().getMessage();
                assertTrue(m.startsWith("world." + name + "("), m);
                assertTrue(m.contains("inside system 'direct " + name + "'"), m);
                assertTrue(m.contains("through its JobContext: " + fixes.get(name) + ", with Stats in its system's "
                        + (name.startsWith("get") ? ".reads(...) (or .writes(...))" : ".writes(...)")), m);
            }
        }
        assertEquals(before, w.stateHash(), "no write went through");
    }
}
