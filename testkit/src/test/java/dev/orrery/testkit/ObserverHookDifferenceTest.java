package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.Phase;
import org.junit.jupiter.api.Test;

/**
 * An observer hook that keeps state outside the world (a flag its lambda captures), so that a run
 * restored from a snapshot runs it afresh: the first time it sees a {@code Growth} added it
 * records an add of {@code Mark}. The hook's commands are applied where the change that fired it
 * is: at the sync point that applied a system's commands (laid at that system's commands, the
 * hook named beside them), or, for an exclusive system's direct spawn, inside that system, so the
 * first difference is after it: the report names the hook there too, not the system alone, whose
 * spawn was the same in both runs.
 */
class ObserverHookDifferenceTest {
    record Mark(int n) {
    }

    private static Simulation build(int workers, boolean populate, boolean exclusive) {
        GrowingWorld g = new GrowingWorld(populate);
        Component<Mark> mark = g.world.component(Mark.class);
        boolean[] fired = new boolean[1];
        g.world.observe(g.growth).onAdd((w, e, commands) -> {
            if (!fired[0]) {
                commands.add(e, mark, new Mark(1));
                fired[0] = true;
            }
        });
        return g.builder(workers).systems(s -> {
            if (exclusive) {
                s.system("spawner").inPhase(Phase.PRE_UPDATE).exclusive(w -> w.spawn(new GrowingWorld.Growth(7)));
            } else {
                s.system("spawner").inPhase(Phase.PRE_UPDATE).spawns(g.growth).forEachRange(() -> 1, (job, from, to) ->
                        job.commands().add(job.commands().spawn(), g.growth, new GrowingWorld.Growth(7)));
            }
            s.system("grow").query(g.growing).writes(g.growth).forEachChunk(job -> {
                float[] v = job.chunk().writeFloats(g.size);
                for (int i = 0, n = job.chunk().size(); i < n; i++) v[i] += 1;
            });
        }).build();
    }

    private static DeterminismFailure restored(boolean exclusive) {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> DeterminismCheck.of(
                (w, p) -> build(w, p, exclusive)).ticks(20).workers(1, 2).run());
        assertEquals("restored from the snapshot of tick 10 on 1 worker", f.run(), f.getMessage());
        assertEquals(10, f.tick(), f.getMessage());
        assertEquals("spawner", f.system(), f.getMessage()); // the system whose change fired the hook
        return f;
    }

    @Test
    void aHookFiredByAnExclusiveSystemsDirectChangeIsNamedBesideIt() {
        String m = restored(true).getMessage();
        // on the old code: "first difference after system 'spawner' at tick 10 (two runs on 1 worker, ..."
        assertFalse(m.contains("first difference after system 'spawner'"), m);
        assertTrue(m.contains("first difference after exclusive system 'spawner' at tick 10 (what it changed, or an "
                + "observer hook (world.observe) its changes fired, with the commands the hook recorded)"), m);
    }

    @Test
    void aHookFiredAtASyncPointIsLaidAtThatSyncPointWithTheCommandsThatFiredIt() {
        String m = restored(false).getMessage();
        assertTrue(m.contains("first difference when the commands of system 'spawner' were applied (the sync point "
                + "before system 'grow' at tick 10"), m);
        assertTrue(m.contains("or an observer hook (world.observe) those commands fired does something that differs"), m);
    }
}
