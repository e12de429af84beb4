package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.StaleEntityException;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.ecs.structure.WorldStorage;
import org.junit.jupiter.api.Test;

/**
 * Error messages of the ECS entry points: each names the thing refused and says what to do
 * instead (a confusing message is a defect).
 */
class MessagesTest {
    record Position(float x, float y) {
    }

    /** A second record whose simple name is also Position. */
    static final class Physics {
        record Position(double x) {
        }
    }

    private static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "message should contain '" + part + "': " + message);
        }
    }

    @Test
    void shouldSayToListEachColumnOnceWhenAShapeListsOneTwice() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> world.shape(pos, pos));
        assertContains(e.getMessage(), "component " + pos + " is listed twice", "list each column once");
    }

    @Test
    void shouldSayWhatToDoWhenABufferHoldsMoreCommandsThanItsSortKeyCounts() throws Exception {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        long e = world.spawn(new Position(1, 2));
        CommandBuffer commands = new CommandBuffer(0);
        java.lang.reflect.Field seq = CommandBuffer.class.getDeclaredField("seq");
        seq.setAccessible(true);
        seq.setInt(commands, 1 << CommandBuffer.SEQ_BITS); // as after 2^27 commands, without recording them
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> commands.remove(e, pos));
        assertContains(x.getMessage(), "more than 134217728 commands recorded since it was last applied or cleared",
                "apply the buffer (world.apply) more often");
    }

    @Test
    void shouldSayToPairEachLockWithOneUnlockWhenTheStructureIsUnlockedOnceTooOften() {
        WorldStorage storage = EcsInternals.storage(new World());
        storage.lockStructure("a test");
        storage.unlockStructure();
        IllegalStateException e = assertThrows(IllegalStateException.class, storage::unlockStructure);
        assertContains(e.getMessage(), "the world's structure lock is released but not held",
                "pair each lockStructure(reason) with exactly one unlockStructure()", "in a finally block");
    }

    /**
     * Three ids that no live entity can have were refused as "despawned, or its slot was reused by
     * a newer generation", which is wrong for each: a command buffer's provisional handle used on
     * the world, {@link Entity#NULL} (an id field never set), and an id this world never handed
     * out (one of another world's). Each message now says what the id is and what to do.
     */
    @Test
    void shouldSayWhatKindOfIdWasRefusedWhenItNeverNamedAnEntityOfThisWorld() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        CommandBuffer commands = new CommandBuffer(0);
        long handle = commands.spawn(world.shape(pos));
        world.apply(commands);
        StaleEntityException provisional = assertThrows(StaleEntityException.class, () -> world.get(handle, pos));
        assertContains(provisional.getMessage(), "entity " + Entity.toString(handle), "provisional handle",
                "command buffer", "only inside", "@EntityRef", "get Position refused");

        StaleEntityException unset = assertThrows(StaleEntityException.class, () -> world.get(Entity.NULL, pos));
        assertContains(unset.getMessage(), "Entity.NULL", "never names an entity", "get Position refused");

        World other = new World();
        other.component(Position.class);
        for (int i = 0; i < 3; i++) {
            other.spawn(new Position(i, i));
        }
        long foreign = other.spawn(new Position(9, 9));
        StaleEntityException elsewhere = assertThrows(StaleEntityException.class, () -> world.get(foreign, pos));
        assertContains(elsewhere.getMessage(), "entity " + Entity.toString(foreign), "never handed out by this world",
                "another world", "get Position refused");

        long mine = world.spawn(new Position(1, 1));
        world.despawn(mine);
        StaleEntityException despawned = assertThrows(StaleEntityException.class, () -> world.despawn(mine));
        assertContains(despawned.getMessage(), "is not alive (despawned", "despawn refused", "World.isAlive(id)");
    }

    /**
     * Two record types with one simple name (two packages' {@code Position}) register two
     * columns both named "Position"; an entity given both was refused with "Position and
     * Position share the instance name 'Position'", which names neither type nor the fix. The
     * refusals (spawn, entity builder, template) now give both classes and the call that
     * renames one.
     */
    @Test
    void shouldNameBothClassesAndTheRenameWhenTwoTypesShareASimpleName() {
        World world = new World();
        Component<Position> mine = world.component(Position.class);
        Component<Physics.Position> theirs = world.component(Physics.Position.class);
        String mineClass = Position.class.getName(), theirsClass = Physics.Position.class.getName();
        IllegalArgumentException spawn = assertThrows(IllegalArgumentException.class,
                () -> world.spawn(new Position(1, 2), new Physics.Position(3)));
        assertContains(spawn.getMessage(), mineClass, theirsClass, "share the instance name 'Position'",
                "world.component(Position.class, \"OtherName\")");
        IllegalArgumentException built = assertThrows(IllegalArgumentException.class,
                () -> world.entity().with(mine, new Position(1, 2)).with(theirs, new Physics.Position(3)).spawn());
        assertContains(built.getMessage(), mineClass, theirsClass, "share the instance name 'Position'");
        IllegalArgumentException template = assertThrows(IllegalArgumentException.class,
                () -> Template.named("t").with(mine, new Position(1, 2)).with(theirs, new Physics.Position(3)));
        assertContains(template.getMessage(), "already has a component named 'Position'", mineClass, theirsClass,
                "world.component(Position.class, \"OtherName\")");
    }

    /**
     * The same column given twice to a template (a copy-paste slip: {@code .with(hold, a)} then
     * {@code .with(hold, b)}) was refused with the advice for two types sharing a name, "register
     * one under a name of its own: world.component(Cargo.class, \"OtherName\")", which is no fix
     * for one column listed twice. It now says the column is already in the template and to give
     * each instance once.
     */
    @Test
    void shouldSayAColumnGivenTwiceToATemplateIsAlreadyThere() {
        World world = new World();
        Component<Position> pos = world.component(Position.class, "Hold");
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> Template.named("Ship").with(pos, new Position(1, 2)).with(pos, new Position(3, 4)));
        assertContains(twice.getMessage(), "template 'Ship'", pos.toString(), "already", "once");
        assertTrue(!twice.getMessage().contains("OtherName"), twice.getMessage());
    }

    /**
     * A hook that changed the structure directly was told "attempted during an observer hook
     * (record structural changes in its command buffer); chunks are being read, so record it in a
     * CommandBuffer and apply it after the iteration": there is no iteration, and the buffer to
     * use is the one the hook was handed, which the world applies itself. The refusal now says so.
     */
    @Test
    void shouldPointAHookAtItsOwnCommandBufferWhenItChangesTheStructureDirectly() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Physics.Position> other = world.component(Physics.Position.class, "Physics");
        world.observe(pos).onAdd((w, e, commands) -> w.add(e, other, new Physics.Position(1)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.spawn(new Position(1, 2)));
        assertContains(e.getMessage(), "structural change (add Position:Physics) attempted during an observer hook",
                "record it in the command buffer the hook is handed", "commands.add(entity, column, value)",
                "which the world applies after the round of hooks");
        assertTrue(!e.getMessage().contains("after the iteration"), e.getMessage());
        Query all = world.query().with(pos).build();
        IllegalStateException iterating = assertThrows(IllegalStateException.class,
                () -> all.forEach((c, row) -> world.despawn(c.entity(row))));
        assertContains(iterating.getMessage(), "during a query iteration", "apply it after the iteration");
    }

    /**
     * A property handle refused an id of another world (or one never handed out) with the generic
     * "is not alive (despawned, or its slot was reused ...)", while the world's own by-id calls
     * say "never handed out by this world". The handle now says so too; a despawned id keeps the
     * "not alive" text.
     */
    @Test
    void shouldSayAPropertyHandleWasGivenAnIdThisWorldNeverHandedOut() {
        World world = new World();
        world.component(Position.class);
        world.spawn(new Position(1, 1));
        PropertyHandle x = world.property("Position", "x");
        World other = new World();
        other.component(Position.class);
        for (int i = 0; i < 3; i++) {
            other.spawn(new Position(i, i));
        }
        long foreign = other.spawn(new Position(9, 9));
        StaleEntityException elsewhere = assertThrows(StaleEntityException.class, () -> x.getFloat(foreign));
        assertContains(elsewhere.getMessage(), "entity " + Entity.toString(foreign), "never handed out by this world",
                "another world", "property Position.x refused");

        long mine = world.spawn(new Position(2, 2));
        world.despawn(mine);
        StaleEntityException despawned = assertThrows(StaleEntityException.class, () -> x.setFloat(mine, 3f));
        assertContains(despawned.getMessage(), "is not alive (despawned", "property Position.x refused");
    }

    /**
     * StaleEntityException had a public (long, String, boolean) constructor, whose boolean a user
     * had to look up to read a call ("true" meant the world once issued the id). The never-issued
     * case now has a factory named for it; the two-argument constructor keeps the despawned case,
     * and Entity.NULL is still named as such whichever way the refusal is made.
     */
    @Test
    void shouldMakeTheNeverHandedOutRefusalThroughAFactoryNamedForIt() {
        long id = Entity.of(5, 3);
        assertContains(StaleEntityException.neverHandedOut(id, "despawn").getMessage(), "entity " + Entity.toString(id),
                "never handed out by this world", "despawn refused");
        assertContains(new StaleEntityException(id, "despawn").getMessage(), "entity " + Entity.toString(id),
                "is not alive (despawned", "despawn refused");
        assertContains(StaleEntityException.neverHandedOut(Entity.NULL, "despawn").getMessage(), "is Entity.NULL");
    }
}
