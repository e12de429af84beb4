package dev.orrery.cluster.world;

import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.ReferenceCodec;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.States;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A world for the cluster's tests that uses the engine's other features at once, each with
 * state that lives across a tick boundary (so a snapshot taken between two ticks must carry
 * it): a resource with a codec, events sent late in a tick and read early in the next, a
 * {@code States} machine whose transition is requested in one tick and applied at the start
 * of the next, a fixed-step phase whose accumulator is rarely zero, the counter-based random
 * source, a sparse component added and removed, a {@code ChildOf} hierarchy walked level by
 * level, named instances spawned from a template, and a reference component with a codec.
 * An input ({@link #SPAWN}: {@code int inputId}) spawns a lamp from the template, the child of
 * an earlier one. Optionally ({@code codeless}) a system also keeps a counter in a resource put
 * without a codec, which a snapshot leaves out. Optionally ({@code namedSparse}) the world also
 * has a named sparse instance ({@code Aura} "Mist") that a system adds, removes by name and sets
 * through a property handle, and one lamp holds a table instance of the same record under
 * another name ({@code Aura} "Veil"), so name look-ups must tell the sparse set from the chain.
 */
final class FeatureWorld implements WorldBlueprint {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    record Buff(int level) {
    }

    record Local(float x) {
    }

    record Global(float x) {
    }

    record Glow(float density, int layer) {
    }

    record Hit(long target, int amount) {
    }

    /** The record of the named sparse instance "Mist" and of the table instance "Veil" (namedSparse only). */
    record Aura(float radius, int hue) {
    }

    /** The sparse instance's name, and the table instance of the same record on one lamp (namedSparse only). */
    static final String MIST = "Mist";
    static final String VEIL = "Veil";

    /** A reference component: value-based, so the state hash sees its contents. */
    static final class Label {
        final String text;

        Label(String text) {
            this.text = text;
        }

        @Override
        public int hashCode() {
            return text.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Label l && l.text.equals(text);
        }
    }

    enum Mode { CALM, STORM }

    /** Input type: spawn one lamp (payload: {@code int inputId}). */
    static final int SPAWN = 3;

    /** Sum and count of the input ids applied, and the hits taken. */
    static final class Tally {
        long sum;
        long count;
        long hits;
        /** Chunks a changed(Fog) filter visited, and entries removal logs of Halo listed. */
        long changedChunks;
        long removedSeen;
    }

    /** A counter a system keeps in a resource put without a codec. */
    static final class Counter {
        long value;
    }

    static final ResourceKey<Tally> TALLY = ResourceKey.of("Tally", Tally.class);
    static final ResourceKey<Counter> COUNTER = ResourceKey.of("Counter", Counter.class);
    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
    static final ResourceKey<FixedTimestep> PHYSICS_CLOCK = ResourceKey.of("physics clock", FixedTimestep.class);
    static final Phase PHYSICS = Phase.named("Physics");
    static final EventKey<Hit> HITS = EventKey.of("hits", Hit.class);

    static final ResourceCodec<Tally> TALLY_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Tally value, DataOutput out) throws IOException {
            out.writeLong(value.sum);
            out.writeLong(value.count);
            out.writeLong(value.hits);
            out.writeLong(value.changedChunks);
            out.writeLong(value.removedSeen);
        }

        @Override
        public Tally read(DataInput in) throws IOException {
            Tally t = new Tally();
            t.sum = in.readLong();
            t.count = in.readLong();
            t.hits = in.readLong();
            t.changedChunks = in.readLong();
            t.removedSeen = in.readLong();
            return t;
        }
    };

    static final ReferenceCodec<Label> LABEL_CODEC = new ReferenceCodec<>() {
        @Override
        public void write(Label value, DataOutput out) throws IOException {
            out.writeUTF(value.text);
        }

        @Override
        public Label read(DataInput in) throws IOException {
            return new Label(in.readUTF());
        }
    };

    private final boolean codeless;
    private final boolean labelCodec;
    private final boolean namedSparse;

    /** @param codeless whether a system also keeps a counter in a resource without a codec */
    FeatureWorld(boolean codeless) {
        this(codeless, true);
    }

    /** @param labelCodec whether the blueprint registers the reference component's codec */
    FeatureWorld(boolean codeless, boolean labelCodec) {
        this(codeless, labelCodec, false);
    }

    /**
     * @param namedSparse whether the world also has the named sparse instance "Mist" (added,
     *     removed by name and set through a property handle) and the table instance "Veil"
     */
    FeatureWorld(boolean codeless, boolean labelCodec, boolean namedSparse) {
        this.codeless = codeless;
        this.labelCodec = labelCodec;
        this.namedSparse = namedSparse;
    }

    /** The payload of input {@code id}. */
    static byte[] spawn(int id) {
        return ByteBuffer.allocate(4).putInt(id).array();
    }

    @Override
    public Simulation build(String worldId, boolean populate) {
        World world = new World(256);
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        Component<Buff> buff = world.component(Buff.class, Storage.SPARSE);
        Component<Local> local = world.component(Local.class);
        Component<Global> global = world.component(Global.class);
        Component<Glow> fog = world.component(Glow.class, "Fog");
        Component<Glow> halo = world.component(Glow.class, "Halo");
        Component<Label> label = world.referenceComponent(Label.class);
        Relation childOf = world.relations().childOf();
        // registered after the others (their ids stay as without the switch); Mist's id is below Veil's, so
        // a snapshot's chain ("table columns in registration order, then sparse ones by id") is not id order
        Component<Aura> mist = namedSparse ? world.component(Aura.class, MIST, Storage.SPARSE) : null;
        Component<Aura> veil = namedSparse ? world.component(Aura.class, VEIL) : null;
        world.trackRemoved(halo);
        Template lamp = Template.named("Lamp").with(pos, new Pos(0, 0)).with(vel, new Vel(0, 0))
                .with(local, new Local(1)).with(global, new Global(0))
                .with(fog, new Glow(0.2f, 1)).with(halo, new Glow(0.8f, 2)).build();
        if (populate) {
            long previous = -1;
            for (int i = 0; i < 40; i++) {
                long e = world.spawn(lamp);
                world.add(e, label, new Label("lamp-" + i));
                if (namedSparse && i == 0) {
                    world.add(e, veil, new Aura(9, 1));                 // the one lamp with a table Aura
                }
                if (i % 4 != 0) {
                    world.relations().add(e, childOf, previous);
                }
                previous = e;
            }
        }
        Query moving = world.query().with(pos, vel).build();
        Query fogChanged = world.query().with(fog).changed(fog).build();
        Query haloed = world.query().with(halo).build();
        Field px = pos.field("x"), py = pos.field("y"), vx = vel.field("x"), vy = vel.field("y");
        Field lx = local.field("x"), gx = global.field("x"), fogDensity = fog.field("density");
        SimulationBuilder builder = Simulation.builder(world).seed(worldId.hashCode()).workers(1).hashEvery(1)
                .resource(TALLY, new Tally(), TALLY_CODEC)
                .resource(MODE, new States<>(Mode.class, Mode.CALM))
                .resource(PHYSICS_CLOCK, new FixedTimestep(5, 3, 4));       // a step in 3 ticks of 5
        if (labelCodec) {
            builder.referenceCodec(Label.class, LABEL_CODEC);
        }
        if (codeless) {
            builder.resource(COUNTER, new Counter());
        }
        Resources res = builder.resources();
        Query veiled = namedSparse ? world.query().with(veil).build() : null;
        PropertyHandle mistRadius = world.property(MIST, "radius");
        PropertyHandle veilRadius = world.property(VEIL, "radius");
        return builder.systems(s -> {
            if (namedSparse) {
                s.system("mist").inPhase(Phase.UPDATE).after("wander").exclusive(w -> {
                    long t = res.get(Simulation.CLOCK).tick();
                    CounterRandom rnd = res.get(Simulation.RANDOM);
                    List<Long> touched = new ArrayList<>();
                    moving.forEachChunk(c -> {
                        for (int i = 0; i < c.size(); i++) {
                            long e = c.entity(i);
                            if (rnd.nextFloat(t, e, 4) < 0.08f && !w.has(e, veil)) {
                                touched.add(e);
                            }
                        }
                    });
                    for (long e : touched) {                            // by name: the sparse set answers
                        if (w.findComponent(e, MIST) == null) {
                            w.add(e, mist, new Aura(t, (int) (t % 4)));
                        } else if (rnd.nextFloat(t, e, 5) < 0.5f) {
                            w.remove(e, w.findComponent(e, MIST));
                        } else {
                            mistRadius.setFloat(e, mistRadius.getFloat(e) + 1);
                        }
                    }
                    List<Long> veils = new ArrayList<>();
                    veiled.forEachChunk(c -> {
                        for (int i = 0; i < c.size(); i++) {
                            veils.add(c.entity(i));
                        }
                    });
                    for (long e : veils) {                              // holds Mist unless t % 8 is 1 or 2
                        veilRadius.setFloat(e, veilRadius.getFloat(e) + 0.5f);
                        if (t % 8 == 3 && w.findComponent(e, MIST) == null) {
                            w.add(e, mist, new Aura(-t, 7));
                        } else if (t % 8 == 1 && w.findComponent(e, MIST) != null) {
                            w.remove(e, w.findComponent(e, MIST));
                        } else if (w.findComponent(e, MIST) != null) {
                            mistRadius.setFloat(e, mistRadius.getFloat(e) * 0.5f + veilRadius.getFloat(e));
                        }
                    }
                });
            }
            s.phases(Phase.PRE_UPDATE, PHYSICS, Phase.UPDATE, Phase.POST_UPDATE).fixedTimestep(PHYSICS, PHYSICS_CLOCK);
            s.system("inputs").inPhase(Phase.PRE_UPDATE).readsEvents(HITS).exclusive((w, job) -> {
                InputBatch in = res.get(Simulation.INPUTS);
                Tally tally = res.get(TALLY);
                for (int i = 0; i < in.size(); i++) {
                    if (in.type(i) == SPAWN) {
                        int id = in.payloadInt(i, 0);
                        long e = w.spawn(lamp);
                        w.add(e, label, new Label("input-" + id));
                        long parent = e - 1 - (id % 3);
                        if (w.isAlive(parent) && w.has(parent, global)) {
                            w.relations().add(e, childOf, parent);
                        }
                        tally.sum += id;
                        tally.count++;
                    }
                }
                job.events(HITS).forEach(h -> {                     // sent late in the previous tick
                    if (w.isAlive(h.target())) {
                        w.setFloat(h.target(), fogDensity, w.getFloat(h.target(), fogDensity) * 0.5f + h.amount());
                    }
                    tally.hits++;
                });
            });
            s.system("fall").inPhase(PHYSICS).exclusive(w -> moving.forEachChunk(c -> {
                float[] y = c.writeFloats(py), v = c.writeFloats(vy);
                for (int i = 0; i < c.size(); i++) {
                    v[i] -= 0.5f;
                    y[i] += v[i];
                }
            }));
            s.system("wander").inPhase(Phase.UPDATE).exclusive(w -> {
                CounterRandom rnd = res.get(Simulation.RANDOM);
                long t = res.get(Simulation.CLOCK).tick();
                float storm = res.get(MODE).current() == Mode.STORM ? 3 : 1;
                List<Long> toggled = new ArrayList<>();
                List<Long> dimmed = new ArrayList<>();
                moving.forEachChunk(c -> {
                    float[] x = c.writeFloats(px), u = c.writeFloats(vx);
                    for (int i = 0; i < c.size(); i++) {
                        long e = c.entity(i);
                        u[i] = 0.9f * u[i] + storm * (rnd.nextFloat(t, e, 0) - 0.5f);
                        x[i] += u[i];
                        if (rnd.nextFloat(t, e, 1) < 0.1f) {           // a sparse buff, on and off
                            toggled.add(e);
                        }
                        if (rnd.nextFloat(t, e, 3) < 0.03f) {          // a named instance, off and on
                            dimmed.add(e);
                        }
                    }
                });
                for (long e : toggled) {
                    if (w.has(e, buff)) {
                        w.remove(e, buff);
                    } else {
                        w.add(e, buff, new Buff((int) (t % 5)));
                    }
                }
                for (long e : dimmed) {                                 // an archetype move; the removal log
                    if (w.has(e, halo)) {
                        w.remove(e, halo);
                    } else if (w.has(e, fog)) {
                        w.add(e, halo, new Glow(0.5f, 3));
                    }
                }
                if (codeless) {
                    Counter counter = res.get(COUNTER);
                    counter.value++;
                    if (counter.value % 5 == 0) {                       // state the world depends on
                        w.spawn(new Pos(counter.value, 0), new Vel(0, 0));
                    }
                }
            });
            s.system("weather").inPhase(Phase.UPDATE).after("wander").writesResource(MODE).exclusive(w -> {
                long t = res.get(Simulation.CLOCK).tick();
                if (t % 7 == 6) {                                       // applied at the start of the next tick
                    res.get(MODE).request(res.get(MODE).current() == Mode.CALM ? Mode.STORM : Mode.CALM);
                }
            });
            s.system("gust").onEnter(MODE, Mode.STORM).exclusive(w -> w.spawn(new Pos(-1, 0), new Vel(2, 0)));
            s.system("propagate").inPhase(Phase.POST_UPDATE).reads(local).writes(global)
                    .forEachLevel(childOf, (job, h, from, to) -> {
                        for (int i = from; i < to; i++) {
                            long e = h.entity(i);
                            int p = h.parentSlot(i);
                            float parentX = p < 0 ? 0 : job.getFloat(h.entity(p), gx);
                            job.setFloat(e, gx, parentX + job.getFloat(e, lx));
                        }
                    });
            s.system("census").inPhase(Phase.POST_UPDATE).query(fogChanged).reads(fog).writesResource(TALLY)
                    .forEachChunk(job -> job.resourceForWrite(TALLY).changedChunks++);   // since it last ran
            s.system("forget").inPhase(Phase.POST_UPDATE).after("census").query(haloed).reads(halo)
                    .writesResource(TALLY).forEachChunk(job -> {
                        if (job.chunkOrdinal() == 0) {
                            job.resourceForWrite(TALLY).removedSeen += job.removed(halo).count();
                        }
                    });
            s.system("strike").inPhase(Phase.POST_UPDATE).after("propagate").writesEvents(HITS)
                    .exclusive((w, job) -> {
                        long t = res.get(Simulation.CLOCK).tick();
                        CounterRandom rnd = res.get(Simulation.RANDOM);
                        long target = (long) (rnd.nextFloat(t, 0, 2) * 40);
                        job.send(HITS, new Hit(target, (int) (t % 3)));  // read by "inputs" next tick
                    });
        }).build();
    }
}
