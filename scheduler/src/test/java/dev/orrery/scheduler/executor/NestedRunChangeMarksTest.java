package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A schedule run from inside an exclusive system of another schedule on the same world (a
 * sub-schedule the game steps itself) leaves the outer system's change marks as it found them:
 * a changed-filter query the outer exclusive system iterates after the inner run is still the
 * system's iteration (its last run, its tick), so it sees what the outer schedule's systems
 * wrote. Before, the inner run's own exclusive system cleared the marks on its way out and the
 * query took ticks of its own, which the outer schedule's planned ticks undercut: it saw none
 * of those writes after the first run (0 rows at runs 3 and 6, where 'hurt' wrote 20).
 */
class NestedRunChangeMarksTest {
    record Hp(int v) {}

    record Tag(int v) {}

    @Test
    void shouldKeepTheOuterExclusiveSystemsMarksAcrossAnInnerRun() {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        Component<Tag> tag = world.component(Tag.class);
        for (int i = 0; i < 20; i++) {
            world.spawn(new Hp(100), new Tag(i));
        }
        Field hpv = hp.field("v");
        Field tagv = tag.field("v");
        Query all = world.query().with(hp, tag).build();
        Query changedHp = world.query().changed(hp).with(tag).build();
        Schedule inner = Schedule.builder(world)
                .system("inner").query(all).writes(tag).forEachChunk(job -> {
                    int[] t = job.chunk().writeInts(tagv);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        t[i]++;
                    }
                })
                .system("inner exclusive").after("inner").exclusive((w, job) -> all.forEachChunk(v -> { }))
                .build();
        int[] run = {0};
        List<String> seen = new ArrayList<>();
        Schedule outer = Schedule.builder(world)
                .system("hurt").query(all).writes(hp).forEachChunk(job -> {
                    if (run[0] % 3 == 0) {
                        int[] h = job.chunk().writeInts(hpv);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            h[i]--;
                        }
                    }
                })
                .system("watch").after("hurt").exclusive((w, job) -> {
                    try (ScheduleExecutor sub = inner.executor(1)) {
                        sub.run(); // a sub-schedule stepped from inside this system
                    }
                    int[] rows = {0};
                    changedHp.forEachChunk(v -> rows[0] += v.size());
                    seen.add("run " + run[0] + ": " + rows[0]);
                })
                .build();
        try (ScheduleExecutor ex = outer.executor(1)) {
            for (run[0] = 0; run[0] < 7; run[0]++) {
                ex.run();
            }
        }
        List<String> expected = new ArrayList<>();
        for (int r = 0; r < 7; r++) {
            expected.add("run " + r + ": " + (r % 3 == 0 ? 20 : 0)); // what 'hurt' wrote since watch last ran
        }
        assertEquals(expected, seen);
    }
}
