package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The resources view's read of a resource is bounded: however large the resource (an array of
 * a million longs, a channel of 200 000 events), its codec writes at most
 * {@link Views#ENCODED_LIMIT} bytes on the tick thread per read, and the view says the size is
 * more than that; a list or map of a million elements is described from its first elements
 * only. A small resource is shown exactly as it always was.
 */
class ResourcesViewTest {
    record Ping(int n) {
    }

    private static final ResourceKey<long[]> BIG = ResourceKey.of("big", long[].class);
    private static final ResourceKey<int[]> SMALL = ResourceKey.of("small", int[].class);
    private static final EventKey<Ping> PINGS = EventKey.of("pings", Ping.class);

    /** An element that counts the calls of its toString. */
    private record Counted(int n, AtomicLong calls) {
        @Override
        public String toString() {
            calls.incrementAndGet();
            return "c" + n;
        }
    }

    /** Writes each long, counting those written. */
    private static ResourceCodec<long[]> longs(AtomicLong written, boolean swallow) {
        return new ResourceCodec<>() {
            @Override
            public void write(long[] v, DataOutput out) throws IOException {
                for (long x : v) {
                    try {
                        out.writeLong(x);
                        written.incrementAndGet();
                    } catch (IOException e) {
                        if (!swallow) {
                            throw e;
                        }
                    }
                }
            }

            @Override
            public long[] read(DataInput in) {
                throw new UnsupportedOperationException("the view only writes");
            }
        };
    }

    private static final ResourceCodec<int[]> INTS = new ResourceCodec<>() {
        @Override
        public void write(int[] v, DataOutput out) throws IOException {
            for (int x : v) {
                out.writeInt(x);
            }
        }

        @Override
        public int[] read(DataInput in) {
            throw new UnsupportedOperationException("the view only writes");
        }
    };

    private static String view(UnaryOperator<SimulationBuilder> resources) {
        try (Simulation sim = resources.apply(Simulation.builder(new World()).workers(1).hashEvery(0)).build()) {
            return Views.resources(sim);
        }
    }

    @Test
    void shouldStopACodecPastTheLimitWhateverTheResourceSize() {
        AtomicLong written = new AtomicLong();
        String json = view(b -> b.resource(BIG, new long[1_000_000], longs(written, false)));
        assertTrue(written.get() * Long.BYTES <= Views.ENCODED_LIMIT,
                "the codec wrote " + written.get() * Long.BYTES + " bytes of its 8 000 000 for one read; at most "
                        + Views.ENCODED_LIMIT + " expected");
        assertEquals(Views.ENCODED_LIMIT / Long.BYTES, written.get(), "it wrote up to the limit");
        assertTrue(json.contains("{\"name\":\"big\",\"type\":\"long[]\",\"text\":\"(a long[] without a toString: give it "
                + "one, or a codec, to see its value here)\",\"codec\":true,\"bytes\":65536,\"bytesMore\":true,"
                + "\"hex\":\"00000000 00000000 00000000 00000000 00000000 00000000 ...\"}"), json);
    }

    @Test
    void shouldReadAChannelOfManyEventsOnlyUpToTheLimit() {
        AtomicLong encoded = new AtomicLong();
        ResourceCodec<Ping> ping = new ResourceCodec<>() {
            @Override
            public void write(Ping v, DataOutput out) throws IOException {
                encoded.incrementAndGet();
                out.writeInt(v.n());
            }

            @Override
            public Ping read(DataInput in) throws IOException {
                return new Ping(in.readInt());
            }
        };
        int events = 200_000;
        try (Simulation sim = Simulation.builder(new World()).workers(1).hashEvery(0).events(PINGS, ping)
                .systems(s -> s.system("send").writesEvents(PINGS).forEachRange(() -> 1, (job, from, to) -> {
                    for (int i = 0; i < events; i++) {
                        job.send(PINGS, new Ping(i));
                    }
                })).build()) {
            sim.tick();
            String json = Views.resources(sim);
            assertTrue(json.contains("\"text\":\"events pings (" + events + " alive, " + events + " from this run)\""),
                    json);
            assertTrue(encoded.get() <= Views.ENCODED_LIMIT / Integer.BYTES + 1, "the view encoded " + encoded.get()
                    + " of the channel's " + events + " events for one read; at most the limit's worth expected");
            assertTrue(json.contains("\"codec\":true,\"bytes\":65536,\"bytesMore\":true,\"hex\":\"00000000 00000000 "
                    + "00000000 00030d40 00000000 00000001 ...\""), json);
        }
    }

    @Test
    void shouldSayTheSizeIsALowerBoundEvenWhenTheCodecSwallowsTheStop() {
        AtomicLong written = new AtomicLong();
        String json = view(b -> b.resource(BIG, new long[20_000], longs(written, true)));
        assertEquals(Views.ENCODED_LIMIT / Long.BYTES, written.get(), "no write went through past the limit");
        assertTrue(json.contains("\"bytes\":65536,\"bytesMore\":true,"), json);
    }

    @Test
    void shouldShowASmallResourceExactly() {
        assertTrue(view(b -> b.resource(SMALL, new int[] {42, 0, 7}, INTS)).contains(
                "\"codec\":true,\"bytes\":12,\"hex\":\"0000002a 00000000 00000007\"}"));
        assertTrue(view(b -> b.resource(SMALL, new int[] {1, 2, 3, 4, 5, 6, 7}, INTS)).contains(
                "\"codec\":true,\"bytes\":28,\"hex\":\"00000001 00000002 00000003 00000004 00000005 00000006 ...\"}"));
        String atTheLimit = view(b -> b.resource(SMALL, new int[Views.ENCODED_LIMIT / Integer.BYTES], INTS));
        assertTrue(atTheLimit.contains("\"codec\":true,\"bytes\":65536,\"hex\":\"00000000 00000000 00000000 00000000 "
                + "00000000 00000000 ...\"}"), "exactly the limit is an exact size: " + atTheLimit);
        String failing = view(b -> b.resource(SMALL, new int[] {1}, new ResourceCodec<>() {
            @Override
            public void write(int[] v, DataOutput out) {
                throw new IllegalStateException("cannot");
            }

            @Override
            public int[] read(DataInput in) {
                throw new UnsupportedOperationException("the view only writes");
            }
        }));
        assertTrue(failing.contains("\"name\":\"small\",\"type\":\"int[]\",\"text\":\"(a int[] without a toString: give it "
                + "one, or a codec, to see its value here)\",\"codec\":true,\"bytes\":null}"), failing);
    }

    @Test
    void shouldDescribeALongListOrMapFromItsFirstElementsOnly() {
        AtomicLong calls = new AtomicLong();
        List<Counted> list = new ArrayList<>();
        for (int i = 0; i < 1_000_000; i++) {
            list.add(new Counted(i, calls));
        }
        Map<String, List<Counted>> map = new HashMap<>(Map.of("all", list));
        String listText = Views.describe(list);
        assertTrue(calls.get() <= Views.TEXT_LIMIT, "describing a list of a million called " + calls.get()
                + " of its elements' toString; at most the shown text's worth expected");
        calls.set(0);
        String mapText = Views.describe(map);
        assertTrue(calls.get() <= Views.TEXT_LIMIT, "describing a map holding a list of a million called "
                + calls.get() + " of its elements' toString; at most the shown text's worth expected");
        assertEquals(Views.clip(list.toString()), listText, "the same text as the clipped toString");
        assertEquals(Views.clip(map.toString()), mapText, "the same text as the clipped toString");
        assertTrue(mapText.startsWith("{all=[c0, c1, c2, ") && mapText.endsWith("..."), mapText);
    }

    @Test
    void shouldDescribeShortCollectionsAsTheirToStringDoes() {
        List<Object> self = new ArrayList<>(List.of(1, "two"));
        self.add(self);
        Map<Object, Object> selfMap = new HashMap<>();
        selfMap.put("me", selfMap);
        TreeMap<String, Object> nested = new TreeMap<>(Map.of("a", Set.of(), "b", List.of(1, 2), "c", Map.of()));
        List<Object> exactlyAtTheLimit = new ArrayList<>(java.util.Collections.nCopies(99, 1));
        exactlyAtTheLimit.add("x");
        assertEquals(Views.TEXT_LIMIT, exactlyAtTheLimit.toString().length(), "[1, 1, ..., x] is the longest unclipped");
        for (Object v : List.of(List.of(), Map.of(), new ArrayList<>(List.of(1, 2, 3)), self, selfMap, nested,
                new ArrayDeque<>(List.of("x", "y")), exactlyAtTheLimit, new ArrayList<>(java.util.Collections.nCopies(
                        150, "ab")), java.util.Collections.unmodifiableList(List.of(1)))) {
            assertEquals(Views.clip(v.toString()), Views.describe(v), "a " + v.getClass().getName());
        }
    }
}
