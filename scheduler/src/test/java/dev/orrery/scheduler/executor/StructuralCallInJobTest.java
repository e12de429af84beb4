package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
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
 * A newcomer's structural call on the world from a job ({@code world.spawn} in a chunk system
 * instead of {@code job.commands().spawn}) is refused naming the system and the command and
 * declaration that do it, not only the structure lock's "record it in a CommandBuffer and
 * apply it after the iteration", which fits a plain query loop, not a job.
 */
class StructuralCallInJobTest {
    record Pos(float x) {
    }

    record Tag(int t) {
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldNameTheSystemAndTheJobsCommandWhenAJobChangesTheWorldsStructure(int workers) {
        World w = new World(256);
        Component<Pos> pos = w.component(Pos.class);
        Component<Tag> tag = w.component(Tag.class);
        for (int i = 0; i < 200; i++) {
            w.spawn(new Pos(i));
        }
        Query q = w.query().with(pos).build();
        Map<String, Consumer<JobContext>> calls = new LinkedHashMap<>();
        calls.put("spawn", job -> w.spawn(new Pos(1)));
        calls.put("despawn", job -> w.despawn(job.chunk().entity(0)));
        calls.put("add", job -> w.add(job.chunk().entity(0), tag, new Tag(2)));
        calls.put("remove", job -> w.remove(job.chunk().entity(0), pos));
        Map<String, String> fixes = Map.of(
                "spawn", "job.commands().spawn(...), with .spawns(...) in the system's declaration",
                "despawn", "job.commands().despawn(entity), with .despawns() in the system's declaration",
                "add", "job.commands().add(entity, Tag, value), with .adds(Tag) in the system's declaration",
                "remove", "job.commands().remove(entity, Pos), with .removes(Pos) in the system's declaration");
        long before = w.stateHash();
        for (Map.Entry<String, Consumer<JobContext>> call : calls.entrySet()) {
            Consumer<JobContext> body = call.getValue();
            Schedule schedule = Schedule.builder(w).minBatchRows(16)
                    .system("direct " + call.getKey()).query(q).reads(pos).forEachChunk(body::accept)
                    .build();
            try (ScheduleExecutor executor = schedule.executor(workers)) {
                SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
                String m = e.getCause().getMessage();
                assertTrue(m.startsWith("structural change (" + call.getKey()), m);
                assertTrue(m.contains("inside system 'direct " + call.getKey() + "'; a job records structural changes "
                        + "in its command buffer, applied at the next sync point: " + fixes.get(call.getKey())
                        + " (or make it an exclusive system, which changes the world directly)"), m);
            }
        }
        assertEquals(before, w.stateHash(), "the world is unchanged");
    }
}
