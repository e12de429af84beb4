package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.internal.EcsInternals;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each way a snapshot section can be wrong that once got past its reader (an allocation from
 * an unchecked length, a value that failed only on a later tick, a refusal after rows were
 * placed) is refused as the snapshot is read, with one {@link SnapshotException} naming the
 * section and the byte offset; the refused simulation stays new and then restores the good
 * snapshot.
 */
class SnapshotDamageTest {
    static final String RESOURCES = "orrery.resources";
    static final String TICK = "orrery.tick";
    static final String CHANGES = "orrery.changes";

    static byte[] good;
    static long goodHash;

    @BeforeAll
    static void seed() {
        good = EverySectionWorkload.seed();
        try (Simulation sim = EverySectionWorkload.build(false)) {
            sim.restore(good);
            goodHash = sim.world().stateHash();
        }
    }

    /** Per resource of the resources section: {offset of its length field, length}, by name, in order. */
    static Map<String, int[]> resources(byte[] section) {
        ByteBuffer b = ByteBuffer.wrap(section);
        int n = b.getInt();
        Map<String, int[]> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            byte[] name = new byte[b.getShort() & 0xFFFF];
            b.get(name);
            int lengthAt = b.position();
            int length = b.getInt();
            out.put(new String(name, StandardCharsets.UTF_8), new int[] {lengthAt, length});
            b.position(b.position() + length);
        }
        return out;
    }

    /** The good snapshot with its section {@code name} edited in place by {@code edit}. */
    static byte[] edited(String name, Consumer<ByteBuffer> edit) {
        byte[] section = EverySectionWorkload.section(good, name);
        edit.accept(ByteBuffer.wrap(section));
        return EverySectionWorkload.withSection(good, name, section);
    }

    /** The offset in the resources section of resource {@code name}'s first data byte. */
    static int dataOf(String name) {
        int[] r = resources(EverySectionWorkload.section(good, RESOURCES)).get(name);
        assertTrue(r != null, "the seed carries resource " + name);
        return r[0] + 4;
    }

    static String channel() {
        for (String name : resources(EverySectionWorkload.section(good, RESOURCES)).keySet()) {
            if (name.contains(EverySectionWorkload.DEATHS.name())) {
                return name;
            }
        }
        throw new AssertionError("the seed carries the deaths channel");
    }

    /** Restores {@code bad}: refused, naming each of {@code expected}; the simulation stays new and takes the good one. */
    static SnapshotException assertRefused(byte[] bad, String... expected) {
        try (Simulation sim = EverySectionWorkload.build(false)) {
            SnapshotException e = assertThrows(SnapshotException.class, () -> sim.restore(bad));
            for (String x : expected) {
                assertTrue(e.getMessage().contains(x), "'" + x + "' in: " + e.getMessage());
            }
            assertFalse(e.getMessage().contains("\n") || e.getMessage().contains("null"), e.getMessage());
            assertEquals(0, sim.world().entityCount(), "nothing placed");
            assertEquals(0, sim.currentTick());
            sim.restore(good);
            assertEquals(goodHash, sim.world().stateHash(), "the refused simulation still takes the good snapshot");
            sim.tick();
            return e;
        }
    }

    @Test
    void shouldCarryEverySectionInTheSeed() {
        Map<String, int[]> res = resources(EverySectionWorkload.section(good, RESOURCES));
        assertTrue(res.keySet().containsAll(java.util.List.of("score", "mode", "step", channel())), res.keySet().toString());
        ByteBuffer events = ByteBuffer.wrap(EverySectionWorkload.section(good, RESOURCES), dataOf(channel()), 16);
        events.getLong();
        events.getInt();
        assertTrue(events.getInt() > 0, "deaths are alive in the seed");
        assertTrue(EverySectionWorkload.sections(EverySectionWorkload.payload(good)).containsKey("orrery.relations"));
    }

    @Test
    void shouldRefuseAResourceLengthOf0x7ffffff0WithoutAllocatingIt() {
        int at = resources(EverySectionWorkload.section(good, RESOURCES)).get("score")[0];
        assertRefused(edited(RESOURCES, b -> b.putInt(at, 0x7fff_fff0)), "section 'orrery.resources'",
                "byte " + at, "2147483632");
    }

    @Test
    void shouldRefuseAResourceLengthOfMinusOne() {
        int at = resources(EverySectionWorkload.section(good, RESOURCES)).get("score")[0];
        assertRefused(edited(RESOURCES, b -> b.putInt(at, -1)), "section 'orrery.resources'", "byte " + at,
                "is negative");
    }

    @Test
    void shouldRefuseAResourceCountOfZeroNamingTheResourcesLeftOut() {
        assertRefused(EverySectionWorkload.withSection(good, RESOURCES, new byte[4]), "section 'orrery.resources'",
                "'score'", "'mode'", "'step'");
    }

    @Test
    void shouldRefuseAResourceGivenTwice() {
        byte[] section = EverySectionWorkload.section(good, RESOURCES);
        int[] score = resources(section).get("score");
        int start = score[0] - 2 - "score".length();
        byte[] twice = ByteBuffer.allocate(section.length + score[1] + 4 + 2 + 5)
                .put(section, 0, section.length).put(section, start, score[1] + 4 + 2 + 5).array();
        ByteBuffer.wrap(twice).putInt(0, ByteBuffer.wrap(section).getInt(0) + 1);
        assertRefused(EverySectionWorkload.withSection(good, RESOURCES, twice), "resource 'score' is given twice");
    }

    @Test
    void shouldRefuseACodecThatLeavesBytesUnread() {
        int at = resources(EverySectionWorkload.section(good, RESOURCES)).get("score")[0];
        byte[] section = EverySectionWorkload.section(good, RESOURCES);
        // "score" is 8 bytes; say 9 and give one more byte: the codec reads 8
        byte[] longer = ByteBuffer.allocate(section.length + 1).put(section, 0, at + 12).put((byte) 7)
                .put(section, at + 12, section.length - at - 12).array();
        ByteBuffer.wrap(longer).putInt(at, 9);
        assertRefused(EverySectionWorkload.withSection(good, RESOURCES, longer), "resource 'score'",
                "1 bytes follow the end");
    }

    @Test
    void shouldRefuseAnEventCountNoBytesBackWithoutAllocatingIt() {
        int at = dataOf(channel()) + 12;
        assertRefused(edited(RESOURCES, b -> b.putInt(at, 0x7fff_fff0)), "section 'orrery.resources'",
                "event channel", "2147483632");
    }

    @Test
    void shouldRefuseAnEventReaderPositionPastTheLastEventWhenRead() {
        int data = dataOf(channel());
        ByteBuffer events = ByteBuffer.wrap(EverySectionWorkload.section(good, RESOURCES));
        long firstSeq = events.getLong(data);
        int count = events.getInt(data + 12);
        int readersAt = data + 16 + count * 13; // each Death: present flag, long, int
        int readers = events.getInt(readersAt);
        assertTrue(readers > 0, "the seed's channel has a reader");
        int nameLength = events.getShort(readersAt + 4) & 0xFFFF;
        int positionAt = readersAt + 4 + 2 + nameLength;
        assertRefused(edited(RESOURCES, b -> b.putLong(positionAt, firstSeq + count + 5)), "has read up to sequence number "
                + (firstSeq + count + 5), "byte " + (readersAt + 4));
    }

    @Test
    void shouldRefuseAFixedStepThatHasAccumulatedAWholeStepAsTheSnapshots() {
        int at = dataOf("step");
        assertRefused(edited(RESOURCES, b -> b.putLong(at + 20, 5)), "section 'orrery.resources'", "byte " + at,
                "accumulated 5 of a step of 5");
    }

    @Test
    void shouldRefuseAFixedStepWithAnotherMostStepsARunThanTheSimulations() {
        // Found by fuzzing: 2^31 - 1 steps a run and a large time a run made one tick run the fixed
        // phase about two billion times (a hang, not an exception).
        int at = dataOf("step");
        assertRefused(edited(RESOURCES, b -> b.putLong(at + 8, Long.MAX_VALUE / 4).putInt(at + 16, Integer.MAX_VALUE)),
                "section 'orrery.resources'", "byte " + at, "at most " + Integer.MAX_VALUE + " steps a run",
                "built otherwise");
    }

    @Test
    void shouldRefuseAStateValueTheEnumLacksNamingTheOffset() {
        int at = dataOf("mode");
        assertRefused(edited(RESOURCES, b -> b.put(at + 2, (byte) 'X')), "section 'orrery.resources'", "byte " + at,
                "is not a constant of");
    }

    @Test
    void shouldRefuseANegativeTick() {
        assertRefused(edited(TICK, b -> b.putLong(0, -5)), "section 'orrery.tick'", "byte 0", "-5");
    }

    @Test
    void shouldRefuseARetireStateOfMinusOneWhenRead() {
        assertRefused(edited(CHANGES, b -> b.putLong(retireAt(), -1)), "section 'orrery.changes'",
                "byte " + retireAt(), "run count is -1");
    }

    @Test
    void shouldRefuseAChangeClockOfZeroBeforeAnyRowIsPlacedAndThenTakeTheGoodSnapshot() {
        assertRefused(edited(CHANGES, b -> b.putLong(0, 0)), "section 'orrery.changes'", "byte 0",
                "change clock reads 0");
    }

    @Test
    void shouldRefuseARowCountTheBytesCannotHoldNamingTheArchetype() {
        byte[] payload = EverySectionWorkload.payload(good);
        int end = 4;
        for (int[] s : EverySectionWorkload.sections(payload).values()) {
            end = Math.max(end, s[0] + s[1]);
        }
        ByteBuffer b = ByteBuffer.wrap(payload);
        int columns = b.getInt(end);
        int at = end + 4;
        for (int i = 0; i < columns; i++) { // class name, kind, instance name, field types, storage
            at += 2 + (b.getShort(at) & 0xFFFF) + 1;
            at += 2 + (b.getShort(at) & 0xFFFF);
            at += 4 + b.getInt(at) + 1;
        }
        int entities = b.getInt(at);
        at += 4 + 4 * entities;
        at += 4 + 4 * b.getInt(at); // the free list
        int archetypesAt = at;
        int rowsAt = archetypesAt + 4 + 4; // archetype 0: no columns, then its row count
        payload[rowsAt] = 0x7f;
        SnapshotException e = assertRefused(EverySectionWorkload.frame(payload), "section 'world' (archetype 0)",
                "file offset " + (20 + rowsAt), "row count");
        assertTrue(e.getMessage().contains("remain"), e.getMessage());
    }

    /** The offset of the retire state (the run count) in the change section, from the seed world's layout. */
    static int retireAt() {
        try (Simulation sim = EverySectionWorkload.build(false)) {
            sim.restore(good);
            Archetypes archetypes = EcsInternals.storage(sim.world()).archetypes();
            ByteBuffer b = ByteBuffer.wrap(EverySectionWorkload.section(good, CHANGES));
            int at = 8 + 4;
            for (int a = 0; a < archetypes.count(); a++) {
                Archetype arch = archetypes.get(a);
                at += 4 + arch.chunkCount() * arch.columnCount() * 16;
            }
            int systems = b.getInt(at);
            at += 4;
            for (int i = 0; i < systems; i++) {
                at += 2 + (b.getShort(at) & 0xFFFF) + 8;
            }
            return at;
        }
    }

    @Test
    void shouldReadTheGoodSnapshotByteForByte() {
        assertTrue(Arrays.equals(good, EverySectionWorkload.withSection(good, TICK,
                EverySectionWorkload.section(good, TICK))), "the test's framing is the writer's");
    }
}
