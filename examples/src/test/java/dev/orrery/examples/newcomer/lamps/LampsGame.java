package dev.orrery.examples.newcomer.lamps;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.ecs.component.Range;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.Phase;
import dev.orrery.testkit.InputScript;
import dev.orrery.testkit.SimulationFactory;
import java.nio.ByteBuffer;

/**
 * A street of lamps, written from docs/named-instances-templates-properties.md only. Two
 * templates ({@code Lamp}: a transform, {@code Fog} and {@code Vignette}, two instances of one
 * type; {@code Torch}: a transform, {@code Fog} and a sparse {@code Glow}) are spawned by a
 * command buffer in a job. A flicker system adds and removes {@code Glow} on lamps by command.
 * A lamplighter takes a client's requests ("set lamp n's instance.field to v") and writes them
 * with {@code setProperty}, counting the refused by property name on the {@code Street}
 * entity; every tick a {@code PropertyHandle} thins each lamp's fog and the glow's density.
 */
public final class LampsGame implements SimulationFactory {
    record Transform(float x, float y, float z) {}
    record RenderData(@Range(min = 0, max = 1) float density, int layer) {}
    record Street(int lamps, int refused, int misnamed, int misfit) {}

    static final int SET = 1;
    /** The request's instance and field, by number: the wire carries no strings. */
    static final String[][] PATHS = {
        {"Fog", "density"}, {"Vignette", "layer"}, {"Transform", "x"}, {"Glow", "density"}, {"Bloom", "density"},
        {"Fog", "thickness"},
    };

    /**
     * The client: every fifth tick a request on lamp (tick % 7), its path and value chosen by the
     * tick: in range, out of range, a whole number as a double into an int field, 5.9 into one,
     * a path no lamp has.
     */
    public static final InputScript CLIENT = (tick, send) -> {
        if (tick % 5 != 0) return;
        int path = (int) (tick / 5 % PATHS.length);
        double value = switch ((int) (tick / 5 % 4)) {
            case 0 -> 0.1;
            case 1 -> 3.0;
            case 2 -> 7.0;
            default -> 5.9;
        };
        send.input(3, SET, ByteBuffer.allocate(16).putInt((int) (tick % 7)).putInt(path).putDouble(value).array());
    };

    static final class Handles {
        Component<Transform> transform;
        Component<RenderData> fog, vignette, glow;
        Component<Street> street;
        Template lamp, torch;
    }

    static Handles handles(World world) {
        Handles h = new Handles();
        h.transform = world.component(Transform.class);
        h.fog = world.component(RenderData.class, "Fog");
        h.vignette = world.component(RenderData.class, "Vignette");
        h.glow = world.component(RenderData.class, "Glow", Storage.SPARSE);
        h.street = world.component(Street.class);
        h.lamp = Template.named("Lamp")
                .with(h.transform, new Transform(0, 0, 0))
                .with(h.fog, new RenderData(0.2f, 1))
                .with(h.vignette, new RenderData(0.8f, 2))
                .build();
        h.torch = Template.named("Torch")
                .with(h.transform, new Transform(0, 1, 0))
                .with(h.fog, new RenderData(0.6f, 1))
                .with(h.glow, new RenderData(1f, 4))
                .build();
        return h;
    }

    @Override
    public Simulation create(int workers, boolean populate) {
        World world = new World();
        Handles h = handles(world);
        PropertyHandle fogDensity = world.property("Fog", "density");
        PropertyHandle glowDensity = world.property("Glow", "density");
        if (populate) {
            world.spawn(new Street(0, 0, 0, 0));
            world.spawnMany(h.lamp, 4);
        }
        Query lamps = world.query().with(h.transform, h.vignette).optional(h.glow).build();
        Query fogged = world.query().with(h.fog).build();
        Query streets = world.query().with(h.street).build();
        return Simulation.builder(world).workers(workers).seed(9)
                .systems(s -> {
                    s.phases(Phase.PRE_UPDATE, Phase.UPDATE, Phase.POST_UPDATE);
                    // Requests by property path, checked at the boundary.
                    s.system("lamplighter").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.INPUTS)
                            .exclusive((w, job) -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                long[] street = {-1};
                                streets.forEach((v, r) -> street[0] = v.entity(r));
                                long[] all = new long[lamps.count()];
                                int[] n = {0};
                                lamps.forEach((v, r) -> all[n[0]++] = v.entity(r));
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.type(k) != SET) continue;
                                    long lamp = all[in.payloadInt(k, 0) % all.length];
                                    String[] path = PATHS[in.payloadInt(k, 4)];
                                    try {
                                        w.setProperty(lamp, path[0], path[1], in.payloadDouble(k, 8));
                                    } catch (InvalidFieldValueException outOfRange) {
                                        bump(w, street[0], "refused");
                                    } catch (IllegalArgumentException wrongNameOrNumber) {
                                        String m = wrongNameOrNumber.getMessage();
                                        bump(w, street[0], m.contains("does not fit") ? "misfit" : "misnamed");
                                    }
                                }
                            });
                    // A lamp every third tick and a torch every fifth, from their templates, by command.
                    s.system("build").readsResource(Simulation.CLOCK).spawns(h.transform, h.fog, h.vignette, h.glow)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                CommandBuffer cmd = job.commands();
                                if (tick % 3 == 0) {
                                    long lamp = cmd.spawn(h.lamp);
                                    cmd.set(lamp, h.transform, new Transform(tick, 0, 0));
                                }
                                if (tick % 5 == 0) {
                                    long torch = cmd.spawn(h.torch);
                                    cmd.set(torch, h.transform, new Transform(0, tick, 0));
                                }
                            });
                    // Lamps glow on odd ticks: a sparse instance added and removed by command.
                    s.system("flicker").query(lamps).reads(h.transform).readsResource(Simulation.CLOCK)
                            .adds(h.glow).removes(h.glow).forEachChunk(job -> {
                                boolean odd = job.resource(Simulation.CLOCK).tick() % 2 == 1;
                                ChunkView c = job.chunk();
                                for (int i = 0; i < c.size(); i++) {
                                    boolean glowing = c.has(h.glow, i);
                                    if (odd && !glowing) job.commands().add(c.entity(i), h.glow, new RenderData(0.5f, 3));
                                    if (!odd && glowing) job.commands().remove(c.entity(i), h.glow);
                                }
                            });
                    // The fog thins, and every glow dims, by handle: no strings, no boxing.
                    s.system("thin").inPhase(Phase.POST_UPDATE).exclusive(w -> {
                        long[] all = new long[fogged.count()];
                        int[] n = {0};
                        fogged.forEach((v, r) -> all[n[0]++] = v.entity(r));
                        for (long e : all) {
                            fogDensity.setFloat(e, fogDensity.getFloat(e) * 0.9f);
                            if (w.findComponent(e, "Glow") != null) glowDensity.setFloat(e, glowDensity.getFloat(e) * 0.75f);
                        }
                        streets.forEach((v, r) -> w.setProperty(v.entity(r), "Street", "lamps", n[0]));
                    });
                })
                .build();
    }

    static void bump(World w, long street, String field) {
        w.setProperty(street, "Street", field, ((Integer) w.getProperty(street, "Street", field)) + 1);
    }
}
