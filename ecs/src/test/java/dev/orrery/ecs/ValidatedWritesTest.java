package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldValidator;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.ecs.component.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Validated writes: {@link Range} on each numeric field type, {@link FieldValidator}s
 * registered with the world, a refused write changing nothing, and which calls check
 * (the boundary writes) and which do not (trusted in-engine writes).
 */
class ValidatedWritesTest {
    record Ranged(@Range(min = -5, max = 5) byte b, @Range(min = -5, max = 5) short s,
                  @Range(min = 2, max = 5) char c, @Range(min = -5, max = 5) int i,
                  @Range(min = -5, max = 5) long l, @Range(min = -5, max = 5) float f,
                  @Range(min = -5, max = 5) double d) {
    }

    record Open(@Range(min = 0) float up, @Range(min = 0.05, max = 60) float reload, double free) {
    }

    record Flag(@Range(min = 0, max = 1) boolean on) {
    }

    record Backwards(@Range(min = 3, max = 1) int n) {
    }

    record NoWhole(@Range(min = 0.2, max = 0.8) int n) {
    }

    record NanBound(@Range(min = Double.NaN) double n) {
    }

    record Team(int team, long victim) {
    }

    private final World world = new World();
    private final Component<Ranged> ranged = world.component(Ranged.class);
    private final long e = world.spawn(new Ranged((byte) 1, (short) 1, (char) 3, 1, 1L, 1f, 1d));

    @Test
    void shouldRefuseValuesOutsideTheRangeOfEachNumericTypeAndKeepTheValue() {
        String[] names = {"b", "s", "c", "i", "l", "f", "d"};
        for (String name : names) {
            Field f = ranged.field(name);
            Object before = world.getValue(e, f);
            InvalidFieldValueException below = assertThrows(InvalidFieldValueException.class,
                    () -> world.setProperty(e, "Ranged", name, name.equals("c") ? (Object) (char) 1 : (Object) (-6)),
                    name);
            InvalidFieldValueException above = assertThrows(InvalidFieldValueException.class,
                    () -> world.setProperty(e, "Ranged", name, name.equals("c") ? (Object) (char) 6 : (Object) 6), name);
            assertEquals(before, world.getValue(e, f), name + ": a refused write changed the value");
            assertEquals(e, below.entity());
            assertSame(f, above.field());
            String msg = above.getMessage();
            assertTrue(msg.contains("entity " + Entity.toString(e) + ":") && msg.contains("Ranged." + name)
                    && msg.contains(" = 6"), msg);
            assertFalse(msg.contains(Long.toString(e)), "the id is printed as index v generation, like every message: " + msg);
            String range = name.equals("c") ? "from 2 to 5" : "from -5 to 5";
            assertTrue(msg.contains(range), msg);
            assertTrue(IllegalArgumentException.class.isInstance(below), "callers catching IAE still catch it");
        }
        world.setProperty(e, "Ranged", "b", (byte) -5);
        world.setProperty(e, "Ranged", "s", (short) 5);
        world.setProperty(e, "Ranged", "c", (char) 2);
        world.setProperty(e, "Ranged", "i", 5);
        world.setProperty(e, "Ranged", "l", -5L);
        world.setProperty(e, "Ranged", "f", 5f);
        world.setProperty(e, "Ranged", "d", -5d);
        assertEquals(new Ranged((byte) -5, (short) 5, (char) 2, 5, -5L, 5f, -5d), world.get(e, ranged),
                "the bounds are inclusive");
        assertThrows(InvalidFieldValueException.class, () -> world.setDouble(e, ranged.field("d"), 5.000001));
        assertThrows(InvalidFieldValueException.class, () -> world.setLong(e, ranged.field("l"), Long.MIN_VALUE));
    }

    @Test
    void shouldRefuseNanAlwaysAndInfinityOnlyOnAClosedSide() {
        Component<Open> open = world.component(Open.class);
        long o = world.spawn(new Open(1f, 1f, 1d));
        Field up = open.field("up");
        Field free = open.field("free");
        assertThrows(InvalidFieldValueException.class, () -> world.setFloat(e, ranged.field("f"), Float.NaN));
        assertThrows(InvalidFieldValueException.class, () -> world.setDouble(e, ranged.field("d"),
                Double.POSITIVE_INFINITY));
        assertThrows(InvalidFieldValueException.class, () -> world.setFloat(o, up, Float.NaN));
        assertThrows(InvalidFieldValueException.class, () -> world.setFloat(o, up, Float.NEGATIVE_INFINITY));
        world.setFloat(o, up, Float.POSITIVE_INFINITY);
        assertEquals(Float.POSITIVE_INFINITY, world.getFloat(o, up), "max is open: +Infinity is in range");
        world.setDouble(o, free, Double.NaN);
        assertTrue(Double.isNaN(world.getDouble(o, free)), "a field with no rule takes anything");
        world.setFloat(o, open.field("reload"), 0.05f);
        assertEquals(0.05f, world.getFloat(o, open.field("reload")), "a float field's bounds are rounded to float");
        assertThrows(InvalidFieldValueException.class, () -> world.setFloat(o, open.field("reload"),
                Math.nextDown(0.05f)));
    }

    @Test
    void shouldRefuseBadRangesAtRegistration() {
        for (Class<? extends Record> bad : java.util.List.of(Flag.class, Backwards.class, NoWhole.class,
                NanBound.class)) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> world.component(bad),
                    bad.getSimpleName());
            assertTrue(x.getMessage().contains(bad.getName()) && x.getMessage().contains("field '"), x.getMessage());
        }
        Component<Team> team = world.component(Team.class);
        assertThrows(IllegalArgumentException.class, () -> FieldValidator.range(2, 1));
        assertThrows(IllegalArgumentException.class,
                () -> world.validator(team.field("team"), FieldValidator.range(0.2, 0.8)));
        World other = new World();
        Component<Team> foreign = other.component(Team.class);
        assertThrows(IllegalArgumentException.class,
                () -> world.validator(foreign.field("team"), FieldValidator.range(0, 1)));
    }

    @Test
    void shouldCheckRegisteredValidatorsAfterTheRange() {
        Component<Team> team = world.component(Team.class);
        long a = world.spawn(new Team(0, 0L));
        long b = world.spawn(new Team(1, 0L));
        world.validator(team.field("team"), FieldValidator.range(0, 3));
        world.validator(team.field("team"), FieldValidator.ofLongs("an even team", v -> v % 2 == 0));
        world.validator(team.field("victim"), FieldValidator.ofLongs("0 or a live entity",
                v -> v == 0 || world.isAlive(v)));
        world.setProperty(a, "Team", "team", 2);
        assertEquals(2, world.getInt(a, team.field("team")));
        InvalidFieldValueException range = assertThrows(InvalidFieldValueException.class,
                () -> world.setProperty(a, "Team", "team", 4));
        assertEquals("a whole number from 0 to 3", range.rule());
        InvalidFieldValueException odd = assertThrows(InvalidFieldValueException.class,
                () -> world.setInt(a, team.field("team"), 1));
        assertEquals("an even team", odd.rule());
        assertEquals("1", odd.value());
        world.setProperty(a, "Team", "victim", b);
        world.despawn(b);
        assertThrows(InvalidFieldValueException.class, () -> world.setProperty(a, "Team", "victim", b),
                "a validator may read the world: b is dead now");
        assertEquals(b, world.getLong(a, team.field("victim")));
        assertNull(FieldValidator.ofDoubles("small", v -> v < 10).check(a, team.field("team"), 3));
        world.checkWrite(a, team.field("team"), 2);
        assertThrows(InvalidFieldValueException.class, () -> world.checkWrite(b, team.field("team"), 5),
                "checkWrite checks the rules, whether or not the entity is alive");
        assertEquals(2, world.getInt(a, team.field("team")), "checkWrite writes nothing");
    }

    @Test
    void shouldCheckEveryBoundaryWrite() {
        Field i = ranged.field("i");
        PropertyHandle h = world.property("Ranged", "i");
        PropertyHandle hf = world.property("Ranged", "f");
        PropertyHandle hd = world.property("Ranged", "d");
        PropertyHandle hl = world.property("Ranged", "l");
        Executable[] boundary = {
            () -> world.setProperty(e, "Ranged", "i", 9),
            () -> world.setBits(e, i, 9),
            () -> world.setInt(e, i, 9),
            () -> world.setFloat(e, ranged.field("f"), 9f),
            () -> world.setDouble(e, ranged.field("d"), 9d),
            () -> world.setLong(e, ranged.field("l"), 9L),
            () -> h.set(e, 9),
            () -> h.setBits(e, 9),
            () -> h.setInt(e, 9),
            () -> hf.setFloat(e, 9f),
            () -> hd.setDouble(e, 9d),
            () -> hl.setLong(e, 9L),
            () -> PropertyHandle.write(world, e, i, 9),
        };
        Ranged before = world.get(e, ranged);
        for (int k = 0; k < boundary.length; k++) {
            assertThrows(InvalidFieldValueException.class, boundary[k], "boundary write " + k);
        }
        assertEquals(before, world.get(e, ranged), "no refused write changed anything");
    }

    @Test
    void shouldNotCheckTrustedWrites() {
        Field i = ranged.field("i");
        world.set(e, ranged, new Ranged((byte) 9, (short) 9, (char) 9, 9, 9L, 9f, 9d));
        assertEquals(9, world.getInt(e, i), "World.set of a whole record is trusted");
        long spawned = world.spawn(new Ranged((byte) 0, (short) 0, (char) 0, 10, 0L, 0f, 0d));
        assertEquals(10, world.getInt(spawned, i), "spawns are trusted");
        world.unvalidated().setInt(e, i, 11);
        world.unvalidated().setFloat(e, ranged.field("f"), -7f);
        assertEquals(11, world.getInt(e, i), "unvalidated() is trusted");
        assertEquals(-7f, world.getFloat(e, ranged.field("f")));
        CommandBuffer buf = new CommandBuffer(0);
        buf.setInt(e, i, 12);
        world.apply(buf);
        assertEquals(12, world.getInt(e, i), "command playback is trusted");
        world.query().with(ranged).build().forEachChunk(c -> {
            int[] a = c.writeInts(i);
            for (int r = 0; r < c.size(); r++) {
                a[r] = 13;
            }
        });
        assertEquals(13, world.getInt(e, i), "chunk arrays are trusted");
    }
}
