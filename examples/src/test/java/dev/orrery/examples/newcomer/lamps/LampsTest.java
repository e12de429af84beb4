package dev.orrery.examples.newcomer.lamps;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.examples.newcomer.lamps.LampsGame.Handles;
import dev.orrery.examples.newcomer.lamps.LampsGame.RenderData;
import dev.orrery.examples.newcomer.lamps.LampsGame.Street;
import dev.orrery.examples.newcomer.lamps.LampsGame.Transform;
import dev.orrery.testkit.DeterminismCheck;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LampsGame}, checked as the book says: the kit on 1, 2 and 4 workers with the client's
 * requests; the values and counts a run must give; a snapshot restored on another worker count;
 * a recording on 4 workers replayed on 1 from its start and from a snapshot; and the chapter's
 * claims about names, templates and property conversions.
 */
class LampsTest {
    static final int TICKS = 60;

    @Test
    void theKitFindsTheStreetDeterministicOnOneTwoAndFourWorkers() {
        List<String> runs = DeterminismCheck.of(new LampsGame()).ticks(TICKS).workers(1, 2, 4)
                .inputs(LampsGame.CLIENT).run();
        assertTrue(runs.size() >= 3, runs.toString());
    }

    static long[] tickTo(Simulation sim, InputPipeline inputs, long until) {
        long[] hashes = new long[(int) until];
        while (sim.currentTick() < until) {
            long tick = sim.currentTick();
            LampsGame.CLIENT.inputs(tick, (client, type, payload) -> {
                if (!inputs.tryPublish(client, type, payload, 0, payload.length)) throw new IllegalStateException("full");
            });
            sim.tick();
            hashes[(int) tick] = sim.world().stateHash();
        }
        return hashes;
    }

    static long[] lamps(World w, Handles h) {
        List<Long> out = new ArrayList<>();
        w.query().with(h.transform, h.vignette).build().forEachReadOnly((v, r) -> out.add(v.entity(r)));
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void aRunWritesWhatTheClientAskedAndRefusesTheRest() {
        try (Simulation sim = new LampsGame().create(2, true); InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            tickTo(sim, inputs, TICKS);
            World w = sim.world();
            Handles h = LampsGame.handles(w);
            long[] street = {-1};
            w.query().with(h.street).build().forEachReadOnly((v, r) -> street[0] = v.entity(r));
            Street s = w.get(street[0], h.street);
            // Twelve requests: 0.1 into Fog.density (tick 0), 3.0 and 5.9 into Vignette.layer (5: an
            // int field takes 3.0; 35: 5.9 does not fit), 7.0 and 0.1 into Transform.x (10, 40),
            // 7.0 into Fog.density (30: out of @Range), Glow on odd ticks (15, 45: no lamp glows
            // then), Bloom and Fog.thickness (20, 25, 50, 55: no such instance or field).
            assertEquals(1, s.refused(), s.toString());
            assertEquals(1, s.misfit(), s.toString());
            assertEquals(6, s.misnamed(), s.toString());
            assertEquals(4 + 20 + 12, s.lamps(), "4 lamps, 20 built, 12 torches");
            long[] lamps = lamps(w, h);
            float fog = 0.1f;                                  // 0.1 rounded to the nearest float
            for (int t = 0; t < TICKS; t++) fog *= 0.9f;
            assertEquals(fog, w.get(lamps[0], h.fog).density(), "tick 0's request, then thinned 60 times");
            assertEquals(7f, w.get(lamps[3], h.transform).x());
            assertEquals(0.1f, w.get(lamps[5], h.transform).x(), "the lamp of tick 3, moved at tick 40");
            assertEquals(3, w.get(lamps[5], h.vignette).layer(), "3.0 into an int field");
            // Tick 59 is odd: every lamp (the last built at 57) glows, its glow dimmed once.
            for (long lamp : lamps) {
                assertEquals(0.375f, w.getProperty(lamp, "Glow", "density"), "lamp " + lamp);
            }
            // A torch's Glow came with its template and dimmed every tick since.
            float glow = 1f;
            for (int t = 0; t < TICKS; t++) glow *= 0.75f;
            long[] torch = {-1};
            w.query().with(h.transform, h.fog).without(h.vignette).build().forEachReadOnly((v, r) -> {
                if (torch[0] < 0) torch[0] = v.entity(r);
            });
            assertEquals(glow, w.property("Glow", "density").getFloat(torch[0]));
        }
    }

    @Test
    void aSnapshotRestoredOnFourWorkersGoesOnWithTheSameHashes() {
        LampsGame game = new LampsGame();
        long[] hashes;
        byte[] snapshot;
        try (Simulation sim = game.create(1, true); InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            tickTo(sim, inputs, 27);
            snapshot = sim.snapshot();
            hashes = tickTo(sim, inputs, TICKS);
        }
        try (Simulation restored = game.create(4, false); InputPipeline inputs = InputPipeline.builder().build()) {
            restored.restore(snapshot);
            restored.inputs(inputs);
            long[] after = tickTo(restored, inputs, TICKS);
            for (int t = 27; t < TICKS; t++) assertEquals(hashes[t], after[t], "state hash at tick " + t);
        }
    }

    @Test
    void aRecordingOnFourWorkersReplaysOnOneFromItsStartAndFromASnapshot(@TempDir Path dir) throws Exception {
        LampsGame game = new LampsGame();
        Path run = dir.resolve("run");
        long recorded;
        byte[] mid;
        try (Simulation sim = game.create(4, true);
             RunRecorder recorder = RunRecorder.start(sim, run, InputPipeline.builder())) {
            tickTo(sim, recorder.inputs(), 31);
            mid = sim.snapshot();
            tickTo(sim, recorder.inputs(), TICKS);
            recorded = sim.world().stateHash();
        }
        try (Simulation fresh = game.create(1, false)) {
            assertEquals(recorded, RunReplayer.replay(run, fresh).finalHash());
        }
        try (Simulation fresh = game.create(1, false)) {
            assertEquals(recorded, RunReplayer.replay(run, mid, fresh).finalHash());
        }
    }

    record Haze(float density) {}

    @Test
    void theChaptersClaimsAboutNamesTemplatesAndConversions() {
        World w = new World();
        Handles h = LampsGame.handles(w);
        IllegalArgumentException bare = assertThrows(IllegalArgumentException.class,
                () -> w.spawn(new RenderData(0.5f, 0)));
        assertTrue(bare.getMessage().contains("Fog") && bare.getMessage().contains("Vignette"), bare.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> Template.named("Twice").with(h.fog, new RenderData(0, 0)).with(h.fog, new RenderData(1, 0)));
        assertTrue(twice.getMessage().contains("Fog"), twice.getMessage());
        RuntimeException nul = assertThrows(RuntimeException.class, () -> Template.named("N").with(h.fog, null));
        assertTrue(nul.getMessage().contains("with(") , nul.getMessage());

        long lamp = w.spawn(h.lamp);
        assertSame(h.fog, w.findComponent(lamp, "Fog"));
        assertNull(w.findComponent(lamp, "Glow"));
        // Rounding and range, as the chapter lists them.
        w.setProperty(lamp, "Transform", "x", 16_777_217);
        assertEquals(16_777_216f, w.get(lamp, h.transform).x());
        w.setProperty(lamp, "Vignette", "layer", 5L);
        w.setProperty(lamp, "Fog", "layer", 5.0);
        assertEquals(5, w.get(lamp, h.vignette).layer());
        assertEquals(5, w.get(lamp, h.fog).layer());
        for (Object bad : new Object[] {5.9, 5_000_000_000L, 1e12}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> w.setProperty(lamp, "Vignette", "layer", bad));
            assertTrue(e.getMessage().contains("layer"), e.getMessage());
            assertTrue(!(e instanceof InvalidFieldValueException), "refused before @Range: " + e);
        }
        assertThrows(IllegalArgumentException.class, () -> w.setProperty(lamp, "Transform", "x", 1e39));
        assertEquals(16_777_216f, w.get(lamp, h.transform).x(), "nothing written");
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> w.getProperty(lamp, "Bloom", "density"));
        assertTrue(wrong.getMessage().contains("Vignette"), wrong.getMessage());
        // Different types under the same name: one handle resolves each to its own field.
        Component<Haze> haze = w.component(Haze.class, "Fog");
        long misty = w.entity().with(haze, new Haze(0.25f)).spawn();
        PropertyHandle density = w.property("Fog", "density");
        assertEquals(0.2f, density.getFloat(lamp));
        assertEquals(0.25f, density.getFloat(misty));
        // A sparse instance through a template, a command buffer and a handle.
        long torch = w.spawn(h.torch);
        assertSame(h.glow, w.findComponent(torch, "Glow"));
        PropertyHandle glow = w.property("Glow", "density");
        glow.setFloat(torch, 0.5f);
        assertThrows(InvalidFieldValueException.class, () -> glow.setFloat(torch, 2f));
        assertEquals(0.5f, w.get(torch, h.glow).density());
        assertArrayEquals(new long[] {lamp}, lamps(w, h));
    }
}
