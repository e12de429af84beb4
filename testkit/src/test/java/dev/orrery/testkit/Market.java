package dev.orrery.testkit;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A market written by a newcomer from docs/determinism.md, public API only: traders wander
 * ({@code wander}), each trails the trader it follows ({@code follow}, reading where that one
 * stood at the end of the last tick; guides, who do not trade, lead the rest), buy at the stalls
 * in reach and sell as an event when loaded ({@code trade}), and retire, each replaced by a new trader through the command buffer
 * ({@code retire}); the bank takes a tax on each sale ({@code tax}), pays interest
 * ({@code interest}, declared after {@code tax}: both write the bank), and weighs the goods
 * carried chunk by chunk ({@code weigh}); {@code mark} keeps where each trader stands for the
 * next tick's {@code follow}. A {@link Bug} plants one mistake a newcomer makes in one system,
 * for {@link MarketBugsTest}.
 */
final class Market {
    record Pos(float x, float y) {}
    record Cargo(float goods) {}
    record Follows(long leader) {}
    record Mark(float x, float y) {}
    record Sale(long trader, float amount) {}

    /** A stall a newcomer keeps outside the world: no equals or hashCode, so identity hashed. */
    static final class Stall {
        final float x;
        final float price;

        Stall(float x, float price) {
            this.x = x;
            this.price = price;
        }
    }

    /** The bank: state, so it has a codec; {@code perChunk} is scratch, combined each tick. */
    static final class Bank {
        float gold = 100;
        long sales;
        float carried;
        final float[] perChunk = new float[256];
    }

    /** One planted mistake, in the system {@link #system} names. */
    enum Bug {
        NONE(null),
        /** A {@code HashMap} keyed by identity-hashed stalls, iterated: the first in reach sells. */
        IDENTITY_HASH_MAP("trade"),
        /** The price moves with the clock, read per sale ({@code System.nanoTime()}: a millisecond clock read modulo a small number repeats between runs about one tick in three, so the mistake would show only now and then). */
        NANO_TIME("trade"),
        /** {@code ThreadLocalRandom} for a step of wandering. */
        THREAD_LOCAL_RANDOM("wander"),
        /** Each job adds its chunk's goods to the bank's float total as it runs. */
        FLOAT_SUM_IN_JOB_ORDER("weigh"),
        /** {@code tax} counts sales in a static field that {@code retire} reads, the two unordered. */
        STATIC_SHARED("retire"),
        /** {@code follow} reads its leader's live position by id, which the system's other jobs write. */
        LEADER_BY_ID("follow"),
        /**
         * {@code interest} writes the bank through the object the factory put, declaring nothing, so
         * the graph leaves it unordered with {@code tax}, which writes the bank too.
         */
        BANK_CAPTURED("interest"),
        /**
         * Not a mistake: a second version of the game that pays interest before the tax (both
         * declared writers of the bank), for the tests of two recordings that differ in a resource.
         */
        INTEREST_BEFORE_TAX("interest");

        final String system;

        Bug(String system) {
            this.system = system;
        }
    }

    static final ResourceKey<Bank> BANK = ResourceKey.of("bank", Bank.class);
    static final EventKey<Sale> SALES = EventKey.of("sales", Sale.class);
    static final int STEP = CounterRandom.stream("step");
    static final int TRADERS = 400;
    static final int GUIDES = 40;
    /**
     * One stall at every x (0 to 39), so a trader has five to nine in reach and which sells
     * depends on the order of them all. With six stalls (seven apart, at most two in reach),
     * two {@link Bug#IDENTITY_HASH_MAP} maps iterated the stalls that matter alike about one
     * build in twenty, and MarketBugsTest's case then failed (about one check in ten: the
     * reference, the first run and the report's rebuilt reference all have to differ).
     */
    static final int STALLS = 40;
    /** Bug.STATIC_SHARED: the sales 'tax' saw this tick, read by 'retire'. */
    static int salesThisTick;

    static final ResourceCodec<Bank> BANK_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Bank b, DataOutput out) throws IOException {
            out.writeFloat(b.gold);
            out.writeLong(b.sales);
            out.writeFloat(b.carried);
        }

        @Override
        public Bank read(DataInput in) throws IOException {
            Bank b = new Bank();
            b.gold = in.readFloat();
            b.sales = in.readLong();
            b.carried = in.readFloat();
            return b;
        }
    };

    static final ResourceCodec<Sale> SALE_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Sale s, DataOutput out) throws IOException {
            out.writeLong(s.trader());
            out.writeFloat(s.amount());
        }

        @Override
        public Sale read(DataInput in) throws IOException {
            return new Sale(in.readLong(), in.readFloat());
        }
    };

    private Market() {
    }

    static SimulationFactory factory(Bug bug) {
        return (workers, populate) -> build(workers, populate, bug);
    }

    static Simulation build(int workers, boolean populate, Bug bug) {
        salesThisTick = 0; // the newcomer resets the static with each new game, so only the systems' order matters
        World world = new World(1024); // small chunks, so the traders fill several
        Component<Pos> pos = world.component(Pos.class);
        Component<Cargo> cargo = world.component(Cargo.class);
        Component<Follows> follows = world.component(Follows.class);
        Component<Mark> mark = world.component(Mark.class);
        if (populate) {
            long[] guides = new long[GUIDES];
            for (int i = 0; i < GUIDES; i++) { // each guide follows the one before it; none retires
                guides[i] = world.spawn(new Pos(i, i % 9), new Follows(i == 0 ? -1 : guides[i - 1]), new Mark(i, i % 9));
            }
            for (int i = 0; i < TRADERS; i++) {
                world.spawn(new Pos(i % 40, i / 40), new Cargo(0), new Follows(guides[i % GUIDES]),
                        new Mark(i % 40, i / 40));
            }
        }
        Field px = pos.field("x"), py = pos.field("y"), goods = cargo.field("goods");
        Field mx = mark.field("x"), my = mark.field("y"), leader = follows.field("leader");
        List<Stall> row = new ArrayList<>();
        for (int i = 0; i < STALLS; i++) {
            row.add(new Stall(i * 7 % 40, 1 + i / 32f));
        }
        Map<Stall, Float> stock = bug == Bug.IDENTITY_HASH_MAP ? new HashMap<>() : new LinkedHashMap<>();
        row.forEach(s -> stock.put(s, s.price));
        var walkers = world.query().with(pos).build();
        var traders = world.query().with(pos, cargo).build();
        var followers = world.query().with(pos, follows).build();
        var marked = world.query().with(pos, mark).build();
        Bank bank = new Bank();
        return Simulation.builder(world).seed(11).workers(workers)
                .resource(BANK, bank, BANK_CODEC)
                .events(SALES, SALE_CODEC)
                .systems(s -> {
                    s.system("wander").query(walkers).writes(pos).readsResource(Simulation.RANDOM, Simulation.CLOCK)
                            .forEachChunk(job -> {
                                CounterRandom r = job.resource(Simulation.RANDOM);
                                long t = job.resource(Simulation.CLOCK).tick();
                                ChunkView c = job.chunk();
                                float[] x = c.writeFloats(px);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    float step = bug == Bug.THREAD_LOCAL_RANDOM ? ThreadLocalRandom.current().nextFloat()
                                            : r.nextFloat(t, c.entity(i), STEP);
                                    x[i] = Math.floorMod((int) (x[i] + step * 3 - 1.5f), 40);
                                }
                            });
                    s.system("follow").after("wander").query(followers).writes(pos).reads(follows, mark)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                float[] y = c.writeFloats(py);
                                long[] l = c.readLongs(leader);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (l[i] < 0) {
                                        continue;
                                    }
                                    float ly = bug == Bug.LEADER_BY_ID ? job.getFloat(l[i], py) // live: written now
                                            : job.getFloat(l[i], my);                        // last tick's mark
                                    y[i] += (ly - y[i]) * 0.5f;
                                }
                            });
                    s.system("trade").after("follow").query(traders).reads(pos).writes(cargo).writesEvents(SALES)
                            .readsResource(Simulation.CLOCK, BANK).forEachChunk(job -> {
                                float wealth = job.resource(BANK).gold % 10 * 0.01f; // a bank in good shape pays a little more
                                ChunkView c = job.chunk();
                                float[] x = c.readFloats(px);
                                float[] g = c.writeFloats(goods);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    for (Map.Entry<Stall, Float> st : stock.entrySet()) {
                                        if (Math.abs(st.getKey().x - x[i]) < 5) {
                                            float price = st.getValue();
                                            if (bug == Bug.NANO_TIME) {
                                                price += System.nanoTime() % 1000 * 0.001f; // "market hours"
                                            }
                                            g[i] += price + wealth;
                                            break; // the first stall in reach sells
                                        }
                                    }
                                    if (g[i] >= 8) {
                                        job.send(SALES, new Sale(c.entity(i), g[i]));
                                        g[i] = 0;
                                    }
                                }
                            });
                    s.system("retire").inPhase(Phase.POST_UPDATE).query(traders).readsResource(Simulation.CLOCK)
                            .reads(pos, follows).spawns(pos, cargo, follows, mark).despawns().forEachChunk(job -> {
                                long t = job.resource(Simulation.CLOCK).tick();
                                int every = bug == Bug.STATIC_SHARED ? 7 + salesThisTick % 5 : 7;
                                ChunkView c = job.chunk();
                                float[] x = c.readFloats(px);
                                long[] l = c.readLongs(leader);
                                CommandBuffer cmd = job.commands();
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if ((c.entity(i) + t) % 97 == every) {
                                        cmd.despawn(c.entity(i));
                                        long e = cmd.spawn();
                                        cmd.add(e, pos, new Pos(x[i], 0));
                                        cmd.add(e, cargo, new Cargo(0));
                                        cmd.add(e, follows, new Follows(l[i])); // the same guide
                                        cmd.add(e, mark, new Mark(x[i], 0));
                                    }
                                }
                            });
                    s.system("tax").inPhase(Phase.POST_UPDATE).readsEvents(SALES).writesResource(BANK)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                Bank b = job.resourceForWrite(BANK);
                                EventReader<Sale> in = job.events(SALES);
                                for (int k = 0; k < in.size(); k++) {
                                    b.gold += in.get(k).amount() * 0.1f;
                                    b.sales++;
                                }
                                salesThisTick = bug == Bug.STATIC_SHARED ? in.size() : salesThisTick;
                            });
                    var interest = s.system("interest").inPhase(Phase.POST_UPDATE);
                    if (bug == Bug.BANK_CAPTURED) {
                        interest.forEachRange(() -> 1, (job, from, to) -> bank.gold *= 1.01f); // "it is the same bank"
                    } else {
                        (bug == Bug.INTEREST_BEFORE_TAX ? interest.before("tax") : interest.after("tax")).writesResource(BANK).forEachRange(() -> 1,
                                (job, from, to) -> job.resourceForWrite(BANK).gold *= 1.01f);
                    }
                    s.system("weigh").inPhase(Phase.POST_UPDATE).after("interest").query(traders).reads(cargo)
                            .writesResource(BANK).forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                float[] g = c.readFloats(goods);
                                float sum = 0;
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    sum += g[i] * 1.1f;
                                }
                                if (bug == Bug.FLOAT_SUM_IN_JOB_ORDER) {
                                    job.resourceForWrite(BANK).carried += sum; // in the order the jobs run
                                } else {
                                    job.resourceForWrite(BANK).perChunk[job.chunkOrdinal()] = sum;
                                }
                            });
                    s.system("count").inPhase(Phase.POST_UPDATE).after("weigh").writesResource(BANK)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                Bank b = job.resourceForWrite(BANK);
                                if (bug == Bug.FLOAT_SUM_IN_JOB_ORDER) {
                                    return;
                                }
                                float total = 0;
                                for (int k = 0; k < b.perChunk.length; k++) { // chunk order, not job order
                                    total += b.perChunk[k];
                                    b.perChunk[k] = 0;
                                }
                                b.carried = total;
                            });
                    s.system("mark").inPhase(Phase.POST_UPDATE).query(marked).reads(pos).writes(mark).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        float[] x = c.readFloats(px), y = c.readFloats(py);
                        float[] a = c.writeFloats(mx), b = c.writeFloats(my);
                        for (int i = 0, n = c.size(); i < n; i++) {
                            a[i] = x[i];
                            b[i] = y[i];
                        }
                    });
                })
                .build();
    }
}
