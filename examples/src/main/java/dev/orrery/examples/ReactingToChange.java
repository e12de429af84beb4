package dev.orrery.examples;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;

/**
 * Four ways to react to what happened instead of scanning everything: events between systems
 * (traps send hits, one system applies them), observers (a monster that loses its loot drops a
 * pile of gold, with the value that left), a change filter (health bars redrawn only for the
 * rows whose health was written) and a removal log (an obituary of everyone who lost their
 * health). Prints the same figures and state hash on 1 and 2 workers. Run it with a tick count
 * ({@code 60} by default).
 */
public final class ReactingToChange {
    record Health(int hp) {}
    record Loot(int gold) {}                     // what a monster carries
    record Pile(int gold) {}                     // what it leaves behind

    // snippet:event
    record Hit(long target, int damage) {}
    static final EventKey<Hit> HITS = EventKey.of("hits", Hit.class);   // create a key once and share it
    // end:event

    /** What the systems and observers saw. */
    static final class Tally {
        long hits, deaths, piles, gold;
    }

    static final ResourceKey<Tally> TALLY = ResourceKey.of("tally", Tally.class);
    static final ResourceKey<LongSum> REDRAWN = ResourceKey.of("redrawn", LongSum.class);
    static final int MONSTERS = 2_000;

    private ReactingToChange() {
    }

    /** The monsters, their observers and four systems, on {@code workers} threads. */
    static Simulation build(int workers) {
        World world = new World();
        Component<Health> health = world.component(Health.class);
        Component<Loot> loot = world.component(Loot.class);
        Component<Pile> pile = world.component(Pile.class);
        Tally tally = new Tally();
        // snippet:tracking
        world.trackRowChanges(health);   // a changed(health) query can then visit only the rows written
        world.trackRemoved(health);      // log who loses Health, for job.removed(health)
        // end:tracking
        // snippet:observers
        world.observe(loot).onRemove((w, e, last, commands) -> {   // last: the Loot the entity held
            long p = commands.spawn();                              // hooks record structural changes
            commands.add(p, pile, new Pile(last.gold()));
        });
        world.observe(pile).onAdd((w, e, commands) -> {
            tally.piles++;
            tally.gold += w.get(e, pile).gold();
        });
        // end:observers
        for (int i = 0; i < MONSTERS; i++) {
            world.spawn(new Health(5 + i % 10), new Loot(1 + i % 7));
        }
        Query monsters = world.query().with(health).build();
        // snippet:changed-query
        Query wounded = world.query().changed(health).build();   // holds Health, written since the reader's last run
        // end:changed-query
        int trapStream = CounterRandom.stream("traps");
        return Simulation.builder(world).workers(workers).seed(3).resource(TALLY, tally)
                .resource(REDRAWN, new LongSum())
                .systems(s -> s.minBatchRows(256)
                        // snippet:send
                        .system("traps").query(monsters).readsResource(Simulation.CLOCK, Simulation.RANDOM)
                        .writesEvents(HITS)
                        .forEachChunk(job -> {
                            long tick = job.resource(Simulation.CLOCK).tick();
                            CounterRandom random = job.resource(Simulation.RANDOM);
                            for (int i = 0; i < job.chunk().size(); i++) {
                                long e = job.chunk().entity(i);
                                int roll = random.nextInt(tick, e, trapStream, 16);
                                if (roll < 2) {                                  // one monster in eight
                                    job.send(HITS, new Hit(e, 1 + roll));        // no lock: merged in a fixed order
                                }
                            }
                        })
                        // end:send
                        // snippet:receive
                        .system("apply hits").readsEvents(HITS).exclusive((w, job) -> {  // alone: changes the world
                            Tally t = job.resourceForWrite(TALLY);
                            job.events(HITS).forEach(hit -> {
                                t.hits++;
                                if (!w.isAlive(hit.target())) {
                                    return;                                     // an earlier hit killed it
                                }
                                int left = w.get(hit.target(), health).hp() - hit.damage();
                                if (left > 0) {
                                    w.set(hit.target(), health, new Health(left));
                                } else {
                                    w.despawn(hit.target());                    // fires the Loot observer
                                }
                            });
                        })
                        // end:receive
                        // snippet:changed
                        .system("health bars").query(wounded).reads(health).reducesResource(REDRAWN)
                        .forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            int redrawn = 0;
                            for (int i = c.firstChanged(health); i >= 0; i = c.nextChanged(i + 1)) {
                                redrawn++;                                      // only rows written since last run
                            }
                            job.add(REDRAWN, redrawn);
                        })
                        // end:changed
                        // snippet:removed
                        .system("obituary").inPhase(Phase.POST_UPDATE).exclusive((w, job) -> {
                            RemovedEntities gone = job.removed(health);         // since this system last ran
                            job.resourceForWrite(TALLY).deaths += gone.count();
                        }))
                        // end:removed
                .build();
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("ReactingToChange", args, "ticks");
        int ticks = ProgramArgs.number("ReactingToChange", args, 0, "ticks", 60, 1, 1_000_000);
        for (int workers = 1; workers <= 2; workers++) {
            try (Simulation sim = build(workers)) {
                sim.run(ticks, 0);
                Tally t = sim.resources().get(TALLY);
                int left = sim.world().query().with(sim.world().component(Health.class)).build().count();
                System.out.printf("%d worker(s): hits=%d deaths=%d piles=%d gold=%d redrawn=%d monsters=%d "
                        + "hash=%016x%n", workers, t.hits, t.deaths, t.piles, t.gold,
                        sim.resources().get(REDRAWN).total(), left, sim.world().stateHash());
            }
        }
    }
}
