package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.RunCondition;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code EventReader.missed()} survives a snapshot: a reader gated to every third tick that
 * fell behind before the snapshot (the event sent the tick after its last read is dropped
 * before its next read) is told it missed events in the restored run, on 1 and 2 workers, as
 * in the straight run. The channel's snapshot (events alive, first sequence number, each
 * reader's position) already held what {@code missed()} needs, so the format is unchanged
 * and snapshots written before it read the same.
 */
class EventsMissedRestoreTest {
    static final EventKey<Integer> TICKS = EventKey.of("missedTicks", Integer.class);

    static final ResourceCodec<Integer> CODEC = new ResourceCodec<>() {
        @Override
        public void write(Integer v, DataOutput out) throws IOException {
            out.writeInt(v);
        }

        @Override
        public Integer read(DataInput in) throws IOException {
            return in.readInt();
        }
    };

    static Simulation build(int workers, List<String> reads) {
        SimulationBuilder builder = Simulation.builder(new World()).seed(3).workers(workers).events(TICKS, CODEC);
        var res = builder.resources();
        return builder.systems(s -> {
            s.system("send").writesEvents(TICKS).readsResource(Simulation.CLOCK).exclusive((w, job) ->
                    job.send(TICKS, (int) res.get(Simulation.CLOCK).tick()));
            s.system("every third").after("send").readsEvents(TICKS)
                    .runIf(RunCondition.resource(Simulation.CLOCK, c -> c.tick() % 3 == 2))
                    .exclusive((w, job) -> {
                        EventReader<Integer> events = job.events(TICKS);
                        List<Integer> got = new ArrayList<>();
                        events.forEach(got::add);
                        reads.add("tick " + res.get(Simulation.CLOCK).tick() + " " + got
                                + (events.missed() ? " missed" : ""));
                    });
        }).build();
    }

    @Test
    void aReaderThatFellBehindBeforeASnapshotIsToldAfterTheRestore() {
        int snapAfter = 6;   // ticks 0..6 ran: the reader last read at tick 5, event 6 is dropped before tick 8
        int ticks = 12;
        List<String> straight = new ArrayList<>();
        byte[] snapshot = null;
        int atSnapshot = 0;
        try (Simulation sim = build(1, straight)) {
            for (int t = 0; t < ticks; t++) {
                sim.tick();
                if (t == snapAfter) {
                    snapshot = sim.snapshot();
                    atSnapshot = straight.size();
                }
            }
        }
        List<String> after = straight.subList(atSnapshot, straight.size());
        assertEquals("tick 8 [7, 8] missed", after.get(0), "the straight run tells the reader at tick 8: " + straight);
        for (int workers : new int[] {1, 2}) {
            List<String> restored = new ArrayList<>();
            try (Simulation sim = build(workers, restored)) {
                sim.restore(snapshot);
                for (int t = snapAfter + 1; t < ticks; t++) {
                    sim.tick();
                }
            }
            assertEquals(after, restored, "the restored run on " + workers + " workers reads as the straight run");
        }
        assertTrue(straight.stream().allMatch(r -> r.endsWith("missed")), "every third tick always misses one: "
                + straight);
    }
}
