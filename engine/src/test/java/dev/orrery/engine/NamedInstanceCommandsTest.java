package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Named instances (two instances of one record type on an entity) written through a job's
 * command buffer by their handles, seen through change filters: the instance named changes,
 * its twin keeps its value, and only the chunk of the entity written passes a
 * {@code changed} filter of that instance, on 1 and 2 workers.
 */
class NamedInstanceCommandsTest {
    record Transform(float x) {
    }

    record RenderData(float density, int layer) {
    }

    record Marker() {
    }

    /** What the test asks of the systems this tick; set between ticks on the test thread. */
    static volatile int step;

    static final class Seen {
        final List<String> fog = Collections.synchronizedList(new ArrayList<>());
        final List<String> vignette = Collections.synchronizedList(new ArrayList<>());

        void clear() {
            fog.clear();
            vignette.clear();
        }
    }

    @Test
    void shouldChangeOnlyTheNamedInstanceAndSeeOnlyItsChunkAsChanged() {
        for (int workers : new int[] {1, 2}) {
            World world = new World();
            Component<Transform> transform = world.component(Transform.class);
            Component<RenderData> fog = world.component(RenderData.class, "Fog");
            Component<RenderData> vignette = world.component(RenderData.class, "Vignette");
            Component<Marker> marker = world.component(Marker.class);
            Template lamp = Template.named("Lamp").with(transform, new Transform(0)).with(fog, new RenderData(0.2f, 1))
                    .with(vignette, new RenderData(0.8f, 2)).build();
            long plain = world.spawn(lamp);                                   // archetype without Marker
            long marked = world.entity().with(transform, new Transform(1)).with(fog, new RenderData(0.3f, 3))
                    .with(vignette, new RenderData(0.7f, 4)).with(marker).spawn();
            Seen seen = new Seen();
            step = 0;
            Simulation sim = Simulation.builder(world).workers(workers).seed(1).systems(s -> s
                    .system("edit").query(world.query().with(vignette).without(marker).build())
                    .setsLater(vignette).removes(fog).adds(fog).forEachChunk(job -> {
                        for (int i = 0; i < job.chunk().size(); i++) {
                            long e = job.chunk().entity(i);
                            if (step == 1) {
                                job.commands().set(e, vignette, new RenderData(0.9f, 7));
                            } else if (step == 2) {
                                job.commands().remove(e, fog);
                            } else if (step == 3) {
                                job.commands().add(e, fog, new RenderData(0.5f, 9));
                            }
                        }
                    })
                    .system("watchFog").after("edit").query(world.query().with(transform).changed(fog).build())
                    .reads(fog).forEachChunk(job -> seen.fog.add(job.chunk().has(marker) ? "marked" : "plain"))
                    .system("watchVignette").after("edit").query(world.query().with(transform).changed(vignette).build())
                    .reads(vignette).forEachChunk(job -> seen.vignette.add(job.chunk().has(marker) ? "marked" : "plain")))
                    .build();
            try (sim) {
                sim.tick();                                  // first runs see every chunk
                seen.clear();
                step = 1;
                sim.tick();                                  // set recorded, played back before the watchers
                step = 0;
                sim.tick();                                  // nothing new: seen once over both ticks
                String w = workers + " worker(s): ";
                assertEquals(new RenderData(0.9f, 7), world.get(plain, vignette), w + "the named instance set");
                assertEquals(new RenderData(0.2f, 1), world.get(plain, fog), w + "its twin keeps its value");
                assertEquals(new RenderData(0.7f, 4), world.get(marked, vignette), w + "the other entity untouched");
                assertEquals(List.of("plain"), seen.vignette, w + "only the written entity's chunk is changed");
                assertEquals(List.of(), seen.fog, w + "the twin instance is not changed");

                seen.clear();
                step = 2;
                sim.tick();
                step = 0;
                sim.tick();
                assertNull(world.findComponent(plain, "Fog"), w + "Fog removed by name");
                assertSame(vignette, world.findComponent(plain, "Vignette"), w + "Vignette kept");
                assertEquals(new RenderData(0.9f, 7), world.get(plain, vignette), w + "Vignette's value kept by the move");
                assertEquals(List.of(), seen.fog, w + "no chunk holds a changed Fog");
                assertEquals(List.of("plain"), seen.vignette, w + "the moved row arrives changed");

                seen.clear();
                step = 3;
                sim.tick();
                step = 0;
                sim.tick();
                assertSame(fog, world.findComponent(plain, "Fog"), w + "Fog added back by name");
                assertEquals(new RenderData(0.5f, 9), world.get(plain, fog), w);
                assertEquals(new RenderData(0.9f, 7), world.get(plain, vignette), w);
                assertEquals(List.of("plain"), seen.fog, w + "the added Fog is seen as changed in its chunk only");
            }
        }
    }
}
