package dev.orrery.examples.newcomer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RandomCursor;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.testkit.DeterminismCheck;
import dev.orrery.testkit.InputScript;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A market of traders written as a newcomer would, from the README and the book only: traders
 * post buy and sell orders at prices drawn from {@code Simulation.RANDOM}, each order tied to
 * its trader by a relation of the game's own ({@code PlacedBy}, which despawns a bankrupt
 * trader's orders with it); a trader with an order on the book carries a sparse
 * {@code Waiting} marker, added and removed by commands nearly every tick; the book clears in a
 * fixed-step phase every third tick, orders expire through despawn commands, rent falls due
 * every fifth tick under a run condition and a newcomer enters every twentieth. A regulator's
 * inputs put rich traders under a sparse {@code Audited} marker for a while; an order job asks
 * by id whether its trader is audited ({@code job.has}, added for this) and cancels the order.
 * The ledger (last price, trades, volume) is a resource with a codec. The test proves it
 * deterministic as the book says: the test kit on 1, 2 and 4 workers with the regulator's
 * script, a snapshot restored midway that continues tick for tick as the original, and a
 * recording replayed on another worker count. HerdGameTest covers predators and prey with
 * {@code ChildOf} and states; this one a relation of the game's own, sparse markers and inputs
 * fed through a restored simulation's new pipeline.
 */
class MarketTradersTest {
    record Trader(int cash, int stock) {}
    record Order(int price, int qty, int side, int ttl) {}    // side: +1 buys, -1 sells
    record Waiting(long since) {}                              // sparse: an order on the book
    record Audited(long until) {}                              // sparse: under the regulator's eye

    static final int REGULATOR = 3;
    static final int AUDIT = 1;
    static final int BUY = 1;
    static final int SELL = -1;
    static final int QUOTE = CounterRandom.stream("quote");
    static final int HARVEST = CounterRandom.stream("harvest");
    static final int ENTRY = CounterRandom.stream("entry");

    static final ResourceKey<FixedTimestep> CLEARING_CLOCK = ResourceKey.of("clearing clock", FixedTimestep.class);
    static final ResourceKey<Ledger> LEDGER = ResourceKey.of("ledger", Ledger.class);

    /** The market's state kept across ticks, so it has a codec. */
    static final class Ledger {
        int lastPrice = 100;
        long trades;
        long volume;
        long clearings;
        int traders;
        int orders;
        int waiting;
        int audited;
    }

    static final ResourceCodec<Ledger> LEDGER_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Ledger l, DataOutput out) throws IOException {
            out.writeInt(l.lastPrice);
            out.writeLong(l.trades);
            out.writeLong(l.volume);
            out.writeLong(l.clearings);
            out.writeInt(l.traders);
            out.writeInt(l.orders);
            out.writeInt(l.waiting);
            out.writeInt(l.audited);
        }

        @Override
        public Ledger read(DataInput in) throws IOException {
            Ledger l = new Ledger();
            l.lastPrice = in.readInt();
            l.trades = in.readLong();
            l.volume = in.readLong();
            l.clearings = in.readLong();
            l.traders = in.readInt();
            l.orders = in.readInt();
            l.waiting = in.readInt();
            l.audited = in.readInt();
            return l;
        }
    };

    /** The regulator audits every trader richer than a threshold, at ticks 30 and 75. */
    static final InputScript REGULATOR_SCRIPT = (tick, send) -> {
        if (tick == 30) send.input(REGULATOR, AUDIT, ByteBuffer.allocate(4).putInt(900).array());
        if (tick == 75) send.input(REGULATOR, AUDIT, ByteBuffer.allocate(4).putInt(700).array());
    };

    /** One order on the book while it clears. */
    record Entry(long order, long trader, int price, int qty) {}

    /** The whole market on {@code workers} threads; {@code populate} false leaves the world empty. */
    static Simulation build(int workers, boolean populate) {
        World world = new World();
        Component<Trader> trader = world.component(Trader.class);
        Component<Order> order = world.component(Order.class);
        Component<Waiting> waiting = world.component(Waiting.class, Storage.SPARSE);
        Component<Audited> audited = world.component(Audited.class, Storage.SPARSE);
        Relation placedBy = world.relations().register("PlacedBy", true, false, Cleanup.DESPAWN_HOLDER);
        Field cash = trader.field("cash"), stock = trader.field("stock");
        Field price = order.field("price"), qty = order.field("qty"), side = order.field("side"), ttl = order.field("ttl");
        Field owner = placedBy.target();

        Shape traderShape = world.shape(trader);
        Shape orderShape = world.shape(order);
        for (int i = 0; populate && i < 60; i++) {
            traderShape.spawn(new Trader(500 + (i * 37) % 400, (i * 13) % 12));
        }
        Query traders = world.query().with(trader).optional(waiting).build();
        Query book = world.query().with(order, placedBy.column()).build();
        Phase clearing = Phase.named("Clearing");

        return Simulation.builder(world).workers(workers).seed(1929)
                .resource(CLEARING_CLOCK, new FixedTimestep(3, 1, 1))     // the book clears every third tick
                .resource(LEDGER, new Ledger(), LEDGER_CODEC)
                .systems(s -> {
                    s.phases(Phase.PRE_UPDATE, Phase.UPDATE, clearing, Phase.POST_UPDATE)
                            .fixedTimestep(clearing, CLEARING_CLOCK);

                    // The regulator's audits: inputs once a tick, in a phase that runs once a tick.
                    s.system("audit").inPhase(Phase.PRE_UPDATE).query(traders).reads(trader)
                            .readsResource(Simulation.INPUTS, Simulation.CLOCK).adds(audited)
                            .forEachChunk(job -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                long tick = job.resource(Simulation.CLOCK).tick();
                                ChunkView c = job.chunk();
                                int[] money = c.readInts(cash);
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.client(k) != REGULATOR || in.type(k) != AUDIT) continue;
                                    int threshold = in.payloadInt(k, 0);
                                    for (int i = 0, n = c.size(); i < n; i++) {
                                        if (money[i] > threshold) job.commands().add(c.entity(i), audited, new Audited(tick + 15));
                                    }
                                }
                            });

                    s.system("lift").inPhase(Phase.PRE_UPDATE).query(traders).reads(audited).removes(audited)
                            .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                ChunkView c = job.chunk();
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (c.has(audited, i) && c.get(audited, i).until() <= tick) {
                                        job.commands().remove(c.entity(i), audited);
                                    }
                                }
                            });

                    // A trader with nothing on the book and no audit may post one order near the last price.
                    s.system("quote").query(traders).reads(trader, waiting, audited)
                            .readsResource(LEDGER, Simulation.RANDOM, Simulation.CLOCK)
                            .spawns(order).adds(placedBy.column(), waiting)
                            .forEachChunk(job -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                int last = job.resource(LEDGER).lastPrice;
                                RandomCursor rng = job.resource(Simulation.RANDOM).cursor();
                                ChunkView c = job.chunk();
                                long[] ids = c.entities();
                                int[] money = c.readInts(cash), goods = c.readInts(stock);
                                CommandBuffer cmd = job.commands();
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (c.has(waiting, i) || c.has(audited, i)) continue;
                                    rng.reset(tick, ids[i], QUOTE);
                                    if (rng.nextInt(100) >= 40) continue;
                                    int p = Math.max(1, last + rng.nextInt(21) - 10);
                                    boolean sells = goods[i] > 0 && (money[i] < p || rng.nextBoolean());
                                    int q = sells ? 1 + rng.nextInt(goods[i]) : Math.min(5, money[i] / p);
                                    if (q <= 0) continue;
                                    long o = cmd.spawn(orderShape);
                                    cmd.setInt(o, price, p);
                                    cmd.setInt(o, qty, q);
                                    cmd.setInt(o, side, sells ? SELL : BUY);
                                    cmd.setInt(o, ttl, 4 + rng.nextInt(6));
                                    cmd.addPair(o, placedBy, ids[i]);
                                    cmd.add(ids[i], waiting, new Waiting(tick));
                                }
                            });

                    // An order that outlives its time, or whose trader is audited, leaves the book.
                    s.system("expire").query(book).reads(placedBy.column(), audited).writes(order)
                            .despawns().removes(waiting)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                long[] ids = c.entities(), owners = c.readLongs(owner);
                                int[] left = c.writeInts(ttl);
                                CommandBuffer cmd = job.commands();
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (--left[i] > 0 && !job.has(owners[i], audited)) continue;   // by id: the trader's marker
                                    cmd.despawn(ids[i]);
                                    cmd.remove(owners[i], waiting);
                                }
                            });

                    // The book clears: best bid against best ask, ties broken by entity id.
                    s.system("clear").inPhase(clearing).exclusive((w, job) -> {
                        List<Entry> bids = new ArrayList<>(), asks = new ArrayList<>();
                        book.forEachChunk(c -> {
                            long[] ids = c.entities(), owners = c.readLongs(owner);
                            int[] p = c.readInts(price), q = c.readInts(qty), sd = c.readInts(side);
                            for (int i = 0; i < c.size(); i++) {
                                (sd[i] == BUY ? bids : asks).add(new Entry(ids[i], owners[i], p[i], q[i]));
                            }
                        });
                        bids.sort(Comparator.comparingInt(Entry::price).reversed().thenComparingLong(Entry::order));
                        asks.sort(Comparator.comparingInt(Entry::price).thenComparingLong(Entry::order));
                        Ledger ledger = job.resourceForWrite(LEDGER);
                        ledger.clearings++;
                        CommandBuffer cmd = job.commands();
                        int b = 0, a = 0, bidLeft = bids.isEmpty() ? 0 : bids.get(0).qty();
                        int askLeft = asks.isEmpty() ? 0 : asks.get(0).qty();
                        while (b < bids.size() && a < asks.size() && bids.get(b).price() >= asks.get(a).price()) {
                            Entry bid = bids.get(b), ask = asks.get(a);
                            int q = Math.min(bidLeft, askLeft);
                            int p = (bid.price() + ask.price()) / 2;
                            w.set(bid.trader(), trader, new Trader(w.getInt(bid.trader(), cash) - p * q,
                                    w.getInt(bid.trader(), stock) + q));
                            w.set(ask.trader(), trader, new Trader(w.getInt(ask.trader(), cash) + p * q,
                                    w.getInt(ask.trader(), stock) - q));
                            ledger.trades++;
                            ledger.volume += q;
                            ledger.lastPrice = p;
                            bidLeft -= q;
                            askLeft -= q;
                            if (bidLeft == 0) {
                                cmd.despawn(bid.order());
                                cmd.remove(bid.trader(), waiting);
                                if (++b < bids.size()) bidLeft = bids.get(b).qty();
                            }
                            if (askLeft == 0) {
                                cmd.despawn(ask.order());
                                cmd.remove(ask.trader(), waiting);
                                if (++a < asks.size()) askLeft = asks.get(a).qty();
                            }
                        }
                        if (b < bids.size()) w.unvalidated().setInt(bids.get(b).order(), qty, bidLeft);
                        if (a < asks.size()) w.unvalidated().setInt(asks.get(a).order(), qty, askLeft);
                    });

                    // Rent every fifth tick (a trader who cannot pay goes bankrupt, orders and all), a harvest, a meal.
                    s.system("rent").inPhase(Phase.POST_UPDATE).query(traders).writes(trader)
                            .readsResource(Simulation.RANDOM, Simulation.CLOCK).despawns()
                            .runIf(RunCondition.resource(Simulation.CLOCK, k -> k.tick() % 5 == 4)
                                    .describedAs("every fifth tick"))
                            .forEachChunk(job -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                RandomCursor rng = job.resource(Simulation.RANDOM).cursor();
                                ChunkView c = job.chunk();
                                long[] ids = c.entities();
                                int[] money = c.writeInts(cash), goods = c.writeInts(stock);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    money[i] -= 12;
                                    if (money[i] < 0) {
                                        job.commands().despawn(ids[i]);      // its orders go too
                                        continue;
                                    }
                                    goods[i] += rng.reset(tick, ids[i], HARVEST).nextInt(3) - (goods[i] > 0 ? 1 : 0);   // harvest, eat one
                                }
                            });

                    // A newcomer enters every twentieth tick with money drawn at random.
                    s.system("entry").inPhase(Phase.POST_UPDATE).spawns(trader)
                            .readsResource(Simulation.RANDOM, Simulation.CLOCK)
                            .runIf(RunCondition.resource(Simulation.CLOCK, k -> k.tick() % 20 == 0)
                                    .describedAs("every twentieth tick"))
                            .forEachRange(() -> 1, (job, from, to) -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                int money = 200 + job.resource(Simulation.RANDOM).nextInt(tick, 0, ENTRY, 600);
                                long t = job.commands().spawn(traderShape);
                                job.commands().setInt(t, cash, money);
                            });

                    s.system("census").inPhase(Phase.POST_UPDATE).after("rent").after("entry")
                            .exclusive((w, job) -> {
                                Ledger ledger = job.resourceForWrite(LEDGER);
                                ledger.traders = traders.count();
                                ledger.orders = book.count();
                                int[] marked = {0};
                                traders.forEach((view, row) -> {
                                    if (view.has(waiting, row)) marked[0]++;
                                });
                                ledger.waiting = marked[0];
                                marked[0] = 0;
                                traders.forEach((view, row) -> {
                                    if (view.has(audited, row)) marked[0]++;
                                });
                                ledger.audited = marked[0];
                            });
                })
                .build();
    }

    /** Ticks {@code sim} from its current tick to {@code end}, publishing the regulator's inputs to {@code inputs} first. */
    static void play(Simulation sim, InputPipeline inputs, long end, long[] hashes, int[] mostAudited) {
        while (sim.currentTick() < end) {
            REGULATOR_SCRIPT.inputs(sim.currentTick(), (client, type, payload) ->
                    assertTrue(inputs.tryPublish(client, type, payload, 0, payload.length), "the input ring took it"));
            long tick = sim.tick();
            if (hashes != null) hashes[(int) tick] = sim.world().stateHash();
            mostAudited[0] = Math.max(mostAudited[0], sim.resources().get(LEDGER).audited);
        }
    }

    @Test
    void theMarketIsDeterministicOnEveryWorkerCountThroughRestoreAndReplay() {
        List<String> runs = DeterminismCheck.of(MarketTradersTest::build)
                .ticks(120)
                .workers(1, 2, 4)
                .inputs(REGULATOR_SCRIPT)
                .run();
        assertTrue(runs.containsAll(List.of("1 worker, jobs in reverse order", "1 worker, unordered systems in reverse order",
                "4 workers, batch 1", "restored from the snapshot of tick 60 on 4 workers",
                "the recording replayed on 4 workers")), "the kit's runs: " + runs);
    }

    @Test
    void aSnapshotRestoredMidwayContinuesTickForTick() {
        long[] hashes = new long[150];
        int[] audited = {0};
        byte[] snapshot;
        try (Simulation sim = build(2, true); InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            play(sim, inputs, 50, hashes, audited);     // tick 50: part-way through a clearing step, an audit on
            snapshot = sim.snapshot();
            play(sim, inputs, hashes.length, hashes, audited);
        }
        assertTrue(audited[0] > 0, "the regulator audited someone");
        try (Simulation restored = build(4, false); InputPipeline inputs = InputPipeline.builder().build()) {
            restored.restore(snapshot);
            restored.inputs(inputs);                      // a snapshot holds no inputs: a new pipeline
            assertEquals(50, restored.currentTick());
            long[] again = new long[hashes.length];
            play(restored, inputs, hashes.length, again, new int[1]);
            for (int t = 50; t < hashes.length; t++) {
                assertEquals(hashes[t], again[t], "the state hash of tick " + t + " after the restore at 50");
            }
        }
    }

    @Test
    void aRecordedMarketReplaysAndTradedAsItSays(@TempDir Path dir) throws Exception {
        Path recording = dir.resolve("market");
        long recordedHash;
        Ledger ledger;
        int[] audited = {0};
        try (Simulation sim = build(2, true)) {
            try (RunRecorder recorder = RunRecorder.start(sim, recording, InputPipeline.builder())) {
                play(sim, recorder.inputs(), 300, null, audited);
            }
            recordedHash = sim.world().stateHash();
            ledger = sim.resources().get(LEDGER);
            World world = sim.world();
            Relation placedBy = world.relations().byName("PlacedBy");
            long[] pairs = world.relations().pairs(placedBy);        // (holder, target, seq) triples
            for (int k = 0; k < pairs.length; k += 3) {
                assertTrue(world.isAlive(pairs[k + 1]), "every order's trader is alive");
            }
            assertEquals(ledger.orders, pairs.length / 3, "every order is placed by one trader");
        }
        assertTrue(ledger.trades > 0 && ledger.volume >= ledger.trades, "the market traded: " + ledger.trades);
        assertEquals(100, ledger.clearings, "the book cleared every third tick");
        assertEquals(ledger.orders, ledger.waiting, "a trader waits exactly while its order is on the book");
        assertTrue(audited[0] > 0 && ledger.audited == 0, "audits came and were lifted: " + audited[0]);
        assertTrue(ledger.traders > 0, "someone is still trading");

        try (Simulation replay = build(1, false)) {
            RunReplayer.Result result = RunReplayer.replay(recording, replay);
            assertEquals(300, result.ticks());
            assertEquals(recordedHash, result.finalHash(), "the replay on 1 worker ends where the run on 2 did");
            assertEquals(ledger.trades, replay.resources().get(LEDGER).trades);
            assertTrue(result.closedCleanly());
        }
    }
}
