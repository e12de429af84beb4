package dev.orrery.examples.newcomer.harbor;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Relations;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.ecs.component.Range;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.testkit.InputScript;
import dev.orrery.testkit.SimulationFactory;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A harbour, written from the README and the book only. Ships are spawned from a template
 * ({@code Ship}: a hull and two named instances of one cargo type, {@code Hold} and
 * {@code Deck}) by a command buffer, and on the same provisional handle given a pair
 * {@code Awaits -> harbour}. A tide rises and falls in a fixed-step phase (7 units a tick,
 * 10-unit steps), sending an event each time it turns. At high water an exclusive pilot moves
 * the oldest waiting ship to a free berth ({@code DockedAt}); an observer on the relation's
 * marker column counts each berth's arrivals through a {@code PropertyHandle}. Docked ships load cargo (an event
 * per load, tallied by a ledger with a codec) and leave full at high water; an {@code onRemove}
 * observer with the value on the {@code Hold} instance writes a manifest entity for each ship
 * that left. Customs count the changed rows of {@code Hold} (per-row tracking and a change
 * filter) into a {@code LongSum} with a codec. The harbour master's inputs set the tariff by
 * property name, a boundary write checked against {@code @Range}; a refused one is counted
 * through a {@code PropertyHandle}. A surveyor in the tide's fixed-step phase walks, in an
 * exclusive system, the decks changed since its previous sub-step; the harbour office counts the
 * rows of chunks where a {@code DockedAt} pair was added since it last ran.
 */
public final class HarborGame implements SimulationFactory {
    /** The phase the ledger reads its events in; POST_UPDATE reads the tick's own. */
    Phase ledgerPhase = Phase.POST_UPDATE;
    record Hull(int capacity, int bornTick) {}
    record Cargo(int tons) {}
    record Quay(int number, int served, int docked) {}
    record Harbour(@Range(min = 0, max = 100) int tariff, int rejected, int hailed) {}
    record Manifest(int tons) {}

    record Loaded(long ship, long berth, int tons) {}
    record TideTurned(int level, long step) {}

    static final int BERTHS = 3;
    static final int HIGH = 1, LOW = 0;

    /** The harbour's own entities: state the systems need, carried by snapshots. */
    static final class Port {
        long harbour = -1;
        long[] berths = new long[0];
    }

    static final class Tide {
        int level = HIGH;
        long steps;
        int turns;
    }

    static final class Ledger {
        long tons;
        int loads;
        int turnsSeen;
        int missedReads;

        @Override
        public String toString() {
            return "Ledger[tons=" + tons + ", loads=" + loads + ", turnsSeen=" + turnsSeen
                    + ", missedReads=" + missedReads + "]";
        }
    }

    /** What the surveyor saw of the decks, sub-step by sub-step of the tide. */
    static final class Survey {
        long chunks, rows;
    }

    static final ResourceKey<Survey> SURVEY = ResourceKey.of("survey", Survey.class);
    static final ResourceKey<Port> PORT = ResourceKey.of("port", Port.class);
    static final ResourceKey<Tide> TIDE = ResourceKey.of("tide", Tide.class);
    static final ResourceKey<Ledger> LEDGER = ResourceKey.of("ledger", Ledger.class);
    static final ResourceKey<LongSum> INSPECTED = ResourceKey.of("inspected", LongSum.class);
    static final ResourceKey<LongSum> WELCOMED = ResourceKey.of("welcomed", LongSum.class);
    static final ResourceKey<FixedTimestep> TIDE_CLOCK = ResourceKey.of("tide clock", FixedTimestep.class);
    static final EventKey<Loaded> LOADED = EventKey.of("loaded", Loaded.class);
    static final EventKey<TideTurned> TURNED = EventKey.of("tide turned", TideTurned.class);
    static final Phase TIDE_PHASE = Phase.named("Tide");

    static final int TARIFF = 1;                 // an input: the harbour master sets the tariff

    /** The harbour master's inputs: a tariff every seventh tick, one in four out of range. */
    public static final InputScript MASTER = (tick, send) -> {
        if (tick % 7 == 3) {
            int tariff = (int) (tick % 4 == 0 ? 150 + tick : tick % 90);
            send.input(9, TARIFF, ByteBuffer.allocate(4).putInt(tariff).array());
        }
    };

    static final ResourceCodec<Port> PORT_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Port p, DataOutput out) throws IOException {
            out.writeLong(p.harbour);
            out.writeInt(p.berths.length);
            for (long b : p.berths) out.writeLong(b);
        }

        @Override
        public Port read(DataInput in) throws IOException {
            Port p = new Port();
            p.harbour = in.readLong();
            p.berths = new long[in.readInt()];
            for (int i = 0; i < p.berths.length; i++) p.berths[i] = in.readLong();
            return p;
        }
    };

    static final ResourceCodec<Tide> TIDE_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Tide t, DataOutput out) throws IOException {
            out.writeInt(t.level);
            out.writeLong(t.steps);
            out.writeInt(t.turns);
        }

        @Override
        public Tide read(DataInput in) throws IOException {
            Tide t = new Tide();
            t.level = in.readInt();
            t.steps = in.readLong();
            t.turns = in.readInt();
            return t;
        }
    };

    static final ResourceCodec<Ledger> LEDGER_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Ledger l, DataOutput out) throws IOException {
            out.writeLong(l.tons);
            out.writeInt(l.loads);
            out.writeInt(l.turnsSeen);
            out.writeInt(l.missedReads);
        }

        @Override
        public Ledger read(DataInput in) throws IOException {
            Ledger l = new Ledger();
            l.tons = in.readLong();
            l.loads = in.readInt();
            l.turnsSeen = in.readInt();
            l.missedReads = in.readInt();
            return l;
        }
    };

    static final ResourceCodec<Survey> SURVEY_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Survey v, DataOutput out) throws IOException {
            out.writeLong(v.chunks);
            out.writeLong(v.rows);
        }

        @Override
        public Survey read(DataInput in) throws IOException {
            Survey v = new Survey();
            v.chunks = in.readLong();
            v.rows = in.readLong();
            return v;
        }
    };

    static final ResourceCodec<LongSum> SUM_CODEC = new ResourceCodec<>() {
        @Override
        public void write(LongSum s, DataOutput out) throws IOException {
            out.writeLong(s.total());
        }

        @Override
        public LongSum read(DataInput in) throws IOException {
            return new LongSum(in.readLong());
        }
    };

    /** The handles a test needs to look into a harbour. */
    static final class Handles {
        Component<Hull> hull;
        Component<Cargo> hold, deck;
        Component<Quay> quay;
        Component<Harbour> harbour;
        Component<Manifest> manifest;
        Relation awaits, dockedAt;
        Template ship, berth;
    }

    static Handles handles(World world) {
        Handles h = new Handles();
        h.hull = world.component(Hull.class);
        h.hold = world.component(Cargo.class, "Hold");
        h.deck = world.component(Cargo.class, "Deck");
        h.quay = world.component(Quay.class);
        h.harbour = world.component(Harbour.class);
        h.manifest = world.component(Manifest.class);
        Relations relations = world.relations();
        h.awaits = relations.register("Awaits", true, false, Cleanup.DESPAWN_HOLDER);
        h.dockedAt = relations.register("DockedAt", true, false, Cleanup.REMOVE_PAIR);
        h.ship = Template.named("Ship")
                .with(h.hull, new Hull(20, 0))
                .with(h.hold, new Cargo(0))
                .with(h.deck, new Cargo(0))
                .build();
        h.berth = Template.named("Berth").with(h.quay, new Quay(0, 0, 0)).build();
        return h;
    }

    @Override
    public Simulation create(int workers, boolean populate) {
        World world = new World();
        Handles h = handles(world);
        world.trackRowChanges(h.hold);
        Field capacity = h.hull.field("capacity");
        Field holdTons = h.hold.field("tons"), deckTons = h.deck.field("tons");
        Field served = h.quay.field("served");
        Field target = h.dockedAt.target();
        PropertyHandle rejected = world.property("Harbour", "rejected");
        PropertyHandle docked = world.property("Quay", "docked");
        PropertyHandle hailed = world.property("Harbour", "hailed");

        // Observers, at set-up: a ship docked (the relation's marker arrives) is an arrival; a
        // ship that leaves (its Hold goes with the despawn) leaves a manifest of what it took.
        world.observe(h.dockedAt.column()).onAdd((w, e, commands) -> {
            long berth = w.relations().target(e, h.dockedAt);
            docked.setInt(berth, docked.getInt(berth) + 1);
        });
        // A ship that hails the harbour (its Awaits pair, recorded on a provisional handle of a
        // template spawn) is counted at the harbour the pair names.
        world.observe(h.awaits.column()).onAdd((w, e, commands) -> {
            long harbour = w.relations().target(e, h.awaits);
            hailed.setInt(harbour, hailed.getInt(harbour) + 1);
        });
        world.observe(h.hold).onRemove((w, e, last, commands) -> {
            long m = commands.spawn();
            commands.add(m, h.manifest, new Manifest(last.tons()));
        });

        Port port = new Port();
        if (populate) {
            port.harbour = world.spawn(new Harbour(10, 0, 0));
            port.berths = new long[BERTHS];
            for (int i = 0; i < BERTHS; i++) {
                port.berths[i] = world.spawn(h.berth);
                world.set(port.berths[i], h.quay, new Quay(i, 0, 0));
            }
        }

        Query moored = world.query().with(h.hull, h.hold, h.deck, h.dockedAt.column()).build();
        Query decks = world.query().with(h.deck).changed(h.deck).build();
        Query arrived = world.query().with(h.hull).added(h.dockedAt.column()).build();
        Query inspected = world.query().with(h.hold).changed(h.hold).build();
        return Simulation.builder(world).workers(workers).seed(11)
                .resource(PORT, port, PORT_CODEC)
                .resource(TIDE, new Tide(), TIDE_CODEC)
                .resource(LEDGER, new Ledger(), LEDGER_CODEC)
                .resource(INSPECTED, new LongSum(), SUM_CODEC)
                .resource(SURVEY, new Survey(), SURVEY_CODEC)
                .resource(WELCOMED, new LongSum(), SUM_CODEC)
                .resource(TIDE_CLOCK, new FixedTimestep(10, 7, 3))
                .systems(s -> {
                    s.phases(Phase.PRE_UPDATE, TIDE_PHASE, Phase.UPDATE, Phase.POST_UPDATE)
                            .fixedTimestep(TIDE_PHASE, TIDE_CLOCK);
                    // The harbour master's tariff, by property name: a boundary write.
                    s.system("master").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.INPUTS, PORT)
                            .exclusive((w, job) -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                long harbour = job.resource(PORT).harbour;
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.type(k) != TARIFF) continue;
                                    try {
                                        w.setProperty(harbour, "Harbour", "tariff", in.payloadInt(k, 0));
                                    } catch (InvalidFieldValueException refused) {
                                        rejected.setInt(harbour, rejected.getInt(harbour) + 1);
                                    }
                                }
                            });
                    // A ship every third tick, from the template, waiting on the harbour.
                    s.system("arrive").inPhase(Phase.PRE_UPDATE)
                            .readsResource(Simulation.CLOCK, PORT)
                            .spawns(h.hull, h.hold, h.deck).adds(h.awaits.column())
                            .forEachRange(() -> 1, (job, from, to) -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                if (tick % 3 != 0) return;
                                CommandBuffer cmd = job.commands();
                                long ship = cmd.spawn(h.ship);
                                cmd.set(ship, h.hull, new Hull(12 + (int) (tick % 4) * 6, (int) tick));
                                cmd.addPair(ship, h.awaits, job.resource(PORT).harbour);
                            });
                    // The tide, in fixed steps: high for six steps, low for six.
                    s.system("tide").inPhase(TIDE_PHASE).writesResource(TIDE).writesEvents(TURNED)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                Tide t = job.resourceForWrite(TIDE);
                                t.steps++;
                                int level = (t.steps / 6) % 2 == 0 ? HIGH : LOW;
                                if (level != t.level) {
                                    t.level = level;
                                    t.turns++;
                                    job.send(TURNED, new TideTurned(level, t.steps));
                                }
                            });
                    // Each tide step a surveyor walks the decks loaded since its last step.
                    s.system("survey").inPhase(TIDE_PHASE).after("tide").writesResource(SURVEY)
                            .exclusive((w, job) -> {
                                Survey v = job.resourceForWrite(SURVEY);
                                decks.forEachChunk(c -> {
                                    v.chunks++;
                                    v.rows += c.size();
                                });
                            });
                    // At high water the pilot berths the oldest waiting ship at each free berth.
                    s.system("pilot").readsResource(TIDE, PORT).exclusive((w, job) -> {
                        if (job.resource(TIDE).level != HIGH) return;
                        Port p = job.resource(PORT);
                        Relations rel = w.relations();
                        for (long berth : p.berths) {
                            if (rel.holderCount(h.dockedAt, berth) > 0) continue;
                            long[] waiting = rel.holders(h.awaits, p.harbour);
                            if (waiting.length == 0) break;
                            rel.remove(waiting[0], h.awaits, p.harbour);
                            rel.add(waiting[0], h.dockedAt, berth);
                        }
                    });
                    // Docked ships load four tons a tick, hold first, then deck.
                    s.system("load").after("pilot").query(moored).reads(h.hull, h.dockedAt.column())
                            .writes(h.hold, h.deck).writesEvents(LOADED).forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                c.markRows(h.hold);
                                int[] cap = c.readInts(capacity);
                                long[] at = c.readLongs(target);
                                int[] hold = c.writeInts(holdTons), deck = c.writeInts(deckTons);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    int room = cap[i] - hold[i] - deck[i];
                                    int tons = Math.min(4, room);
                                    if (tons <= 0) continue;
                                    if (hold[i] < cap[i] / 2) {
                                        int h1 = Math.min(tons, cap[i] / 2 - hold[i]);
                                        hold[i] += h1;
                                        deck[i] += tons - h1;
                                        c.markChanged(h.hold, i);
                                    } else {
                                        deck[i] += tons;
                                    }
                                    job.send(LOADED, new Loaded(c.entity(i), at[i], tons));
                                }
                            });
                    // Full ships leave at high water; their berth counts them.
                    s.system("depart").after("load").query(moored)
                            .reads(h.hull, h.hold, h.deck, h.dockedAt.column()).writes(h.quay)
                            .readsResource(TIDE).despawns().forEachChunk(job -> {
                                if (job.resource(TIDE).level != HIGH) return;
                                ChunkView c = job.chunk();
                                int[] cap = c.readInts(capacity);
                                int[] hold = c.readInts(holdTons), deck = c.readInts(deckTons);
                                long[] at = c.readLongs(target);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (hold[i] + deck[i] < cap[i]) continue;
                                    job.setInt(at[i], served, job.getInt(at[i], served) + 1);
                                    job.commands().despawn(c.entity(i));
                                }
                            });
                    s.system("ledger").inPhase(ledgerPhase).readsEvents(LOADED, TURNED)
                            .writesResource(LEDGER).exclusive((w, job) -> {
                                Ledger l = job.resourceForWrite(LEDGER);
                                if (job.events(LOADED).missed() || job.events(TURNED).missed()) l.missedReads++;
                                job.events(LOADED).forEach(e -> {
                                    l.tons += e.tons();
                                    l.loads++;
                                });
                                job.events(TURNED).forEach(e -> l.turnsSeen++);
                            });
                    // The harbour office greets the chunks where ships berthed since it last ran.
                    s.system("welcome").inPhase(Phase.POST_UPDATE).query(arrived)
                            .reads(h.hull, h.dockedAt.column()).reducesResource(WELCOMED)
                            .forEachChunk(job -> job.add(WELCOMED, job.chunk().size()));
                    s.system("customs").inPhase(Phase.POST_UPDATE).query(inspected).reads(h.hold)
                            .reducesResource(INSPECTED).forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                int n = 0;
                                for (int i = c.firstChanged(h.hold); i >= 0; i = c.nextChanged(i + 1)) n++;
                                job.add(INSPECTED, n);
                            });
                })
                .build();
    }
}
