package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import dev.orrery.scheduler.JobContext;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A newcomer registering a component from a job ({@code world.component(Late.class)} in a
 * chunk system) changed the world's registry on a worker while the other jobs read it (and a
 * new sparse column made its set off the owner's thread), although a relation registered the
 * same way is refused. A new registration from a job is now refused naming the system and the
 * fix (register at set-up); looking up a column already registered still answers.
 */
class ComponentRegistrationInJobTest {
    record Pos(float x) {
    }

    record Late(int v) {
    }

    static final class Notes {
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldRefuseANewRegistrationFromAJobAndStillAnswerAKnownOne(int workers) {
        World w = new World(256);
        Component<Pos> pos = w.component(Pos.class);
        for (int i = 0; i < 200; i++) {
            w.spawn(new Pos(i));
        }
        Query q = w.query().with(pos).build();
        Map<String, Consumer<JobContext>> calls = new LinkedHashMap<>();
        calls.put("Late", job -> w.component(Late.class));
        calls.put("Late:Named", job -> w.component(Late.class, "Named"));
        calls.put("Late:Spare", job -> w.component(Late.class, "Spare", Storage.SPARSE));
        calls.put("Pos:Other", job -> w.component(Pos.class, "Other"));
        calls.put("Notes", job -> w.referenceComponent(Notes.class));
        int columns = w.columns().size();
        long before = w.stateHash();
        for (Map.Entry<String, Consumer<JobContext>> call : calls.entrySet()) {
            Consumer<JobContext> body = call.getValue();
            Schedule schedule = Schedule.builder(w).minBatchRows(16)
                    .system("register " + call.getKey()).query(q).reads(pos).forEachChunk(body::accept)
                    .build();
            try (ScheduleExecutor executor = schedule.executor(workers)) {
                SystemFailedException e = assertThrows(SystemFailedException.class, executor::run, call.getKey());
                String m = e.getCause().getMessage();
                assertTrue(m.startsWith("component registration (" + call.getKey() + ")"), m);
                assertTrue(m.contains("inside system 'register " + call.getKey() + "'")
                        && m.contains("register every component at set-up"), m);
            }
            assertEquals(columns, w.columns().size(), call.getKey() + ": nothing registered");
        }
        Component<?>[] seen = new Component<?>[1];
        Schedule lookUp = Schedule.builder(w).system("look up").query(q).reads(pos)
                .forEachChunk(job -> seen[0] = w.component(Pos.class)).build();
        try (ScheduleExecutor executor = lookUp.executor(workers)) {
            executor.run();
        }
        assertSame(pos, seen[0], "a column registered at set-up is still handed out");
        assertEquals(before, w.stateHash(), "the world is unchanged");
        assertEquals(Late.class, w.component(Late.class).type().javaClass(), "registers after the run");
    }
}
