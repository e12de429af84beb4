package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Handles of another world, null handles and bad indexes given to the world's public calls:
 * each is refused with a message naming the thing and the fix, and the world is unchanged (no
 * internal NullPointerException, IndexOutOfBoundsException or ClassCastException).
 */
class ForeignHandleTest {
    record Pos(float x, float y) {
    }

    record Vel(float dx, float dy) {
    }

    record Mass(double kg) {
    }

    @Test
    void shouldRefuseAnotherWorldsComponentsAndFieldsEverywhereLeavingTheWorldUnchanged() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        long e = w.spawn(new Pos(1, 2));
        World other = new World();
        Component<Vel> ovel = other.component(Vel.class); // id 0, as pos is here
        other.component(Pos.class);
        Component<Mass> omass = other.component(Mass.class); // an id beyond this world's registry
        Field odx = ovel.field("dx");
        long hash = w.stateHash();
        Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("remove", () -> w.remove(e, ovel));
        calls.put("get", () -> w.get(e, ovel));
        calls.put("has", () -> w.has(e, ovel));
        calls.put("set", () -> w.set(e, ovel, new Vel(3, 4)));
        calls.put("add", () -> w.add(e, omass, new Mass(5)));
        calls.put("add zeroed", () -> w.add(e, omass));
        calls.put("getFloat", () -> w.getFloat(e, odx));
        calls.put("setFloat", () -> w.setFloat(e, odx, 9));
        calls.put("getValue", () -> w.getValue(e, odx));
        calls.put("query with", () -> w.query().with(ovel));
        calls.put("query without", () -> w.query().with(pos).without(omass));
        calls.put("query any", () -> w.query().any(ovel));
        calls.put("query optional", () -> w.query().with(pos).optional(ovel));
        calls.put("entity().with", () -> w.entity().with(ovel, new Vel(1, 1)).spawn());
        calls.put("shape", () -> w.shape(omass));
        calls.put("validator", () -> w.validator(odx, (entity, field, bits) -> null));
        calls.put("addToAll", () -> w.addToAll(w.query().with(pos).build(), omass));
        calls.put("trackRowChanges", () -> w.trackRowChanges(omass));
        for (Map.Entry<String, Executable> call : calls.entrySet()) {
            IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, call.getValue(), call.getKey());
            assertTrue(ex.getMessage().contains("registered by another world")
                    && ex.getMessage().contains("use this world's component handles"), call.getKey() + ": " + ex.getMessage());
            assertTrue(ex.getMessage().contains("Vel") || ex.getMessage().contains("Mass"), ex.getMessage());
        }
        assertEquals(hash, w.stateHash(), "nothing changed");
        assertEquals(new Pos(1, 2), w.get(e, pos));
        assertEquals(1, w.entityCount());
    }

    @Test
    void shouldRefuseAnotherWorldsQueryInABulkMoveLeavingBothWorldsUnchanged() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        Component<Vel> vel = w.component(Vel.class);
        long e = w.spawn(new Pos(1, 2), new Vel(3, 4));
        World other = new World();
        Component<Pos> opos = other.component(Pos.class);
        other.component(Vel.class);
        long[] theirs = new long[3];
        for (int i = 0; i < theirs.length; i++) {
            theirs[i] = other.spawn(new Pos(i, i));
        }
        Query foreign = other.query().with(opos).build();
        long hash = w.stateHash();
        long otherHash = other.stateHash();
        Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("addToAll", () -> w.addToAll(foreign, vel));
        calls.put("removeFromAll", () -> w.removeFromAll(foreign, pos)); // moved the other world's rows
        for (Map.Entry<String, Executable> call : calls.entrySet()) {
            IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, call.getValue(), call.getKey());
            assertTrue(ex.getMessage().contains(call.getKey()) && ex.getMessage().contains("another world")
                    && ex.getMessage().contains("world.query()"), call.getKey() + ": " + ex.getMessage());
        }
        NullPointerException npe = assertThrows(NullPointerException.class, () -> w.addToAll(null, vel));
        assertTrue(npe.getMessage().contains("query"), npe.getMessage());
        assertEquals(hash, w.stateHash(), "this world unchanged");
        assertEquals(new Pos(1, 2), w.get(e, pos));
        assertEquals(otherHash, other.stateHash(), "the other world unchanged");
        assertEquals(theirs.length, foreign.count(), "the other world's entities keep Pos");
        assertEquals(new Pos(2, 2), other.get(theirs[2], opos));
    }

    @Test
    void shouldNameTheRelationsRegisterCallWhenRefusingAnotherWorldsRelationColumn() {
        World w = new World();
        w.component(Pos.class);
        long holder = w.spawn(new Pos(0, 0));
        long target = w.spawn(new Pos(1, 1));
        World other = new World();
        Relation likes = other.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        long hash = w.stateHash();
        Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("query pair", () -> w.query().pair(likes, target));
        calls.put("query with marker", () -> w.query().with(likes.column()));
        calls.put("buffer addPair", () -> {
            CommandBuffer b = new CommandBuffer(0);
            b.addPair(holder, likes, target);
            w.apply(b);
        });
        for (Map.Entry<String, Executable> call : calls.entrySet()) {
            IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, call.getValue(), call.getKey());
            // Pair, the marker's record type, is the relation store's: world.component(Pair.class) is refused, no fix.
            assertFalse(ex.getMessage().contains("Pair.class"), call.getKey() + ": " + ex.getMessage());
            assertTrue(ex.getMessage().contains("another world")
                    && ex.getMessage().contains("world.relations().register(\"Likes\""), call.getKey() + ": " + ex.getMessage());
        }
        assertEquals(hash, w.stateHash(), "nothing changed");
    }

    @Test
    void shouldRefuseAnotherWorldsHandleInAChunkViewWhoseIdHoldsADifferentColumnHere() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        long e = w.spawn(new Pos(1, 2));
        World other = new World();
        Component<Vel> ovel = other.component(Vel.class); // id 0, as pos is here: the chunk has a slot for it
        Field odx = ovel.field("dx");
        Map<String, java.util.function.Consumer<ChunkView>> calls = new LinkedHashMap<>();
        calls.put("readFloats", view -> view.readFloats(odx));
        calls.put("writeFloats", view -> view.writeFloats(odx));
        calls.put("get", view -> view.get(ovel, 0));
        calls.put("set", view -> view.set(ovel, 0, new Vel(7, 8)));
        calls.put("has", view -> view.has(ovel));
        calls.put("has row", view -> view.has(ovel, 0));
        calls.put("changed", view -> view.changed(ovel));
        calls.put("markChanged", view -> view.markChanged(ovel));
        for (Map.Entry<String, java.util.function.Consumer<ChunkView>> call : calls.entrySet()) {
            IllegalArgumentException[] caught = new IllegalArgumentException[1];
            w.query().with(pos).build().forEachChunk(view -> {
                try {
                    call.getValue().accept(view);
                } catch (IllegalArgumentException ex) {
                    caught[0] = ex;
                }
            });
            assertNotNull(caught[0], call.getKey() + " took another world's handle (it would read Pos as Vel)");
            assertTrue(caught[0].getMessage().contains("registered by another world")
                    && caught[0].getMessage().contains("Vel") && caught[0].getMessage().contains("Pos"),
                    call.getKey() + ": " + caught[0].getMessage());
        }
        assertEquals(new Pos(1, 2), w.get(e, pos), "nothing written");
    }

    @Test
    void shouldRefuseACommandBufferOfAnotherWorldsComponentsBeforeApplyingAnything() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        long e = w.spawn(new Pos(1, 2));
        World other = new World();
        Component<Vel> ovel = other.component(Vel.class);
        other.component(Pos.class);
        Component<Mass> omass = other.component(Mass.class);
        long hash = w.stateHash();
        for (Component<?> foreign : new Component<?>[] {ovel, omass}) {
            CommandBuffer b = new CommandBuffer(0);
            b.spawn(); // valid commands first: they must not apply either
            if (foreign == ovel) {
                b.remove(e, ovel); // the same id as pos here: it would remove Pos
            } else {
                b.set(e, pos, new Pos(7, 7));
                b.add(e, omass, new Mass(3)); // an id this world does not have
            }
            IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> w.apply(b));
            assertTrue(ex.getMessage().contains(foreign.toString()) && ex.getMessage().contains("another world")
                    && ex.getMessage().contains("nothing was applied"), ex.getMessage());
            assertEquals(hash, w.stateHash(), "nothing applied");
        }
        // One buffer mixing two worlds' handles with the same id is refused as it records.
        CommandBuffer mixed = new CommandBuffer(1);
        mixed.add(e, pos, new Pos(0, 0));
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> mixed.remove(e, ovel));
        assertTrue(ex.getMessage().contains("same column id"), ex.getMessage());
        // A cleared buffer forgets the columns: it may record another world's commands next.
        mixed.clear();
        mixed.remove(e, ovel);
    }

    @Test
    void shouldRefuseABufferSpawningFromAnotherWorldsTemplateOrShapeBeforeApplyingAnything() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        w.spawn(new Pos(1, 2));
        World other = new World();
        other.component(Mass.class);
        Component<Pos> opos = other.component(Pos.class); // id 1: an id this world does not have
        Template foreignTemplate = Template.named("Crate").with(opos, new Pos(3, 3)).build();
        Shape foreignShape = other.shape(opos);
        long hash = w.stateHash();
        for (String through : new String[] {"template", "shape"}) {
            CommandBuffer b = new CommandBuffer(0);
            long first = b.spawn(); // a valid command before: it must not apply either
            b.add(first, pos, new Pos(5, 5));
            if (through.equals("template")) {
                b.spawn(foreignTemplate);
            } else {
                b.spawn(foreignShape);
            }
            IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> w.apply(b), through);
            assertTrue(ex.getMessage().contains("another world") && ex.getMessage().contains("nothing was applied"),
                    through + ": " + ex.getMessage());
            assertEquals(hash, w.stateHash(), through + ": nothing applied");
            assertEquals(1, w.entityCount(), through);
            assertTrue(b.isEmpty(), through + ": cleared, so a later sync point does not play it again");
            assertEquals(0, w.apply(b).applied(), through);
        }
        // A buffer that recorded this world's Pos refuses a template of another world's Pos with its id, as it records.
        World twin = new World();
        Template twinTemplate = Template.named("Crate").with(twin.component(Pos.class), new Pos(3, 3)).build();
        CommandBuffer mixed = new CommandBuffer(1);
        mixed.add(mixed.spawn(), pos, new Pos(0, 0));
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> mixed.spawn(twinTemplate));
        assertTrue(ex.getMessage().contains("same column id"), ex.getMessage());
        // The buffer's own world takes the same spawns, and a cleared buffer notes the shape again.
        Template own = Template.named("Crate").with(pos, new Pos(3, 3)).build();
        CommandBuffer b = new CommandBuffer(2);
        b.spawn(own);
        b.spawn(w.shape(pos));
        w.apply(b);
        assertEquals(3, w.entityCount());
        b.spawn(foreignShape);
        b.clear();
        b.spawn(w.shape(pos));
        w.apply(b);
        assertEquals(4, w.entityCount());
    }

    @Test
    void shouldClearTheBuffersItRefusesForAnotherWorldsComponentAndReportNothingApplied() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        long e = w.spawn(new Pos(1, 2));
        World other = new World();
        other.component(Pos.class);
        Component<Mass> omass = other.component(Mass.class);
        CommandPlayback playback = new CommandPlayback();
        CommandBuffer good = new CommandBuffer(0);
        good.add(good.spawn(), pos, new Pos(3, 3));
        assertEquals(2, playback.apply(w, good).applied());
        CommandBuffer foreign = new CommandBuffer(1);
        foreign.add(e, omass, new Mass(3));
        CommandBuffer beside = new CommandBuffer(2);
        beside.set(e, pos, new Pos(7, 7));
        java.util.List<CommandBuffer> both = java.util.List.of(foreign, beside);
        assertThrows(IllegalArgumentException.class, () -> playback.apply(w, both));
        assertEquals(0, playback.lastReport().applied(), "the report says nothing was applied, not the last playback's 2");
        assertTrue(foreign.isEmpty() && beside.isEmpty(), "cleared: a scheduler's next sync point must not refuse them again");
        assertEquals(0, playback.apply(w, both).applied(), "the next sync point applies what was recorded since: nothing");
        assertEquals(new Pos(1, 2), w.get(e, pos));
    }

    @Test
    void shouldRefuseNullsAtTheEntryPointsNamingWhatIsMissing() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        long e = w.spawn(new Pos(1, 2));
        Query q = w.query().with(pos).build();
        CommandBuffer b = new CommandBuffer(0);
        long hash = w.stateHash();
        Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("spawn", () -> w.spawn((Object[]) null));
        calls.put("get", () -> w.get(e, null));
        calls.put("has", () -> w.has(e, null));
        calls.put("add", () -> w.add(e, (Component<?>) null));
        calls.put("remove", () -> w.remove(e, null));
        calls.put("getFloat", () -> w.getFloat(e, null));
        calls.put("setFloat", () -> w.setFloat(e, null, 1));
        calls.put("shape", () -> w.shape((Component<?>) null));
        calls.put("validator", () -> w.validator(null, (entity, field, bits) -> null));
        calls.put("property", () -> w.property(null, null));
        calls.put("apply", () -> w.apply((CommandBuffer) null));
        calls.put("forEachChunk", () -> q.forEachChunk(null));
        calls.put("query with", () -> w.query().with((Component<?>) null));
        calls.put("entity().with", () -> w.entity().with(null));
        calls.put("commands.add", () -> b.add(e, null, new Pos(1, 1)));
        calls.put("commands.setFloat", () -> b.setFloat(e, null, 1));
        for (Map.Entry<String, Executable> call : calls.entrySet()) {
            NullPointerException ex = assertThrows(NullPointerException.class, call.getValue(), call.getKey());
            assertNotNull(ex.getMessage(), call.getKey());
            assertFalse(ex.getMessage().contains("because") || ex.getMessage().contains("<local"),
                    call.getKey() + " named no internal variable: " + ex.getMessage());
        }
        assertEquals(hash, w.stateHash(), "nothing changed");
        assertTrue(b.isEmpty(), "nothing recorded");
    }

    @Test
    void shouldRefuseABadFieldIndexOrRowNamingTheComponentOrTheChunksSize() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        IndexOutOfBoundsException field = assertThrows(IndexOutOfBoundsException.class, () -> pos.field(9));
        assertTrue(field.getMessage().contains("Pos") && field.getMessage().contains("2 fields")
                && field.getMessage().contains("[x, y]"), field.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> pos.field(-1));
        w.spawn(new Pos(1, 2));
        w.query().with(pos).build().forEachChunk(view -> {
            for (int row : new int[] {-1, view.size()}) {
                IndexOutOfBoundsException ex = assertThrows(IndexOutOfBoundsException.class, () -> view.entity(row));
                assertTrue(ex.getMessage().contains("row " + row) && ex.getMessage().contains("1 rows"), ex.getMessage());
            }
        });
    }

    @Test
    void shouldRefuseEntityNullInACommandAndSayAMadeUpIdIsNoHandle() {
        World w = new World();
        w.component(Pos.class);
        CommandBuffer b = new CommandBuffer(0);
        IllegalArgumentException nul = assertThrows(IllegalArgumentException.class, () -> b.despawn(Entity.NULL));
        assertTrue(nul.getMessage().contains("Entity.NULL is not an entity"), nul.getMessage());
        assertTrue(b.isEmpty());
        b.despawn(12345L); // generation 0, but no buffer issued it
        b.despawn(Entity.of(1 << 24, 0)); // buffer 1's slot 0: never a handle
        PlaybackReport r = new CommandPlayback().strict(false).apply(w, b);
        assertEquals(2, r.count(CommandOutcome.REFUSED), r.toString());
        assertTrue(r.firstRefusal().contains("12345v0 is not a handle spawn() returned"), r.firstRefusal());
        assertFalse(r.firstRefusal().contains("before its spawn was applied"), r.firstRefusal());
    }
}
