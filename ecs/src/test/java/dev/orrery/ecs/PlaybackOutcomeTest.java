package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import org.junit.jupiter.api.Test;

/**
 * Playback's outcomes per command kind, and strict mode: a refused command throws, naming the
 * system that recorded it and the command, after the sync point was applied exactly as in
 * lenient mode; skips of dead entities and removes of missing components never throw.
 */
class PlaybackOutcomeTest {
    record Hp(int v) {
    }

    record Pos(float x) {
    }

    record Burning() {
    }

    /** A world and one recorded sync point with every outcome, built the same way each time. */
    static final class Scene {
        final World w = new World(512);
        final Component<Hp> hp = w.component(Hp.class);
        final Component<Pos> pos = w.component(Pos.class);
        final Component<Burning> burning = w.component(Burning.class);
        final long a = w.spawn(new Hp(3), new Pos(1));
        final long b = w.spawn(new Hp(5));
        final long dead = w.spawn(new Hp(0));
        final CommandBuffer damage = new CommandBuffer(0);
        final CommandBuffer reap = new CommandBuffer(1);

        Scene() {
            w.despawn(dead);
            reap.beginChunk(1, 0); // system order 1: "reap"
            reap.despawn(b);
            reap.despawn(b); // skipped: dead by then
            damage.beginChunk(2, 0); // system order 2: "burn"
            damage.add(a, burning);
            damage.set(a, hp, new Hp(2));
            damage.remove(a, pos);
            damage.remove(a, pos); // no-op: already gone
            damage.add(b, burning); // skipped: reaped earlier in key order
            damage.set(dead, hp, new Hp(1)); // skipped: dead before the playback
            damage.setFloat(a, pos.field("x"), 4); // refused: removed above
            long h = damage.spawn();
            damage.add(h, hp, new Hp(9));
        }

        PlaybackReport play(CommandPlayback playback) {
            return playback.apply(w, java.util.List.of(damage, reap));
        }
    }

    private static String names(int order) {
        return order == 1 ? "reap" : order == 2 ? "burn" : null;
    }

    @Test
    void shouldCountEveryOutcomePerKind() {
        Scene s = new Scene();
        CommandPlayback playback = new CommandPlayback().strict(false);
        playback.systemNames(PlaybackOutcomeTest::names);
        PlaybackReport r = s.play(playback);
        assertEquals(1, r.count(CommandKind.DESPAWN, CommandOutcome.APPLIED));
        assertEquals(1, r.count(CommandKind.DESPAWN, CommandOutcome.SKIPPED_DEAD));
        assertEquals(2, r.count(CommandKind.ADD, CommandOutcome.APPLIED), "burning on a, hp on the spawn");
        assertEquals(1, r.count(CommandKind.ADD, CommandOutcome.SKIPPED_DEAD));
        assertEquals(1, r.count(CommandKind.REMOVE, CommandOutcome.APPLIED));
        assertEquals(1, r.count(CommandKind.REMOVE, CommandOutcome.NO_OP));
        assertEquals(1, r.count(CommandKind.SET, CommandOutcome.APPLIED));
        assertEquals(1, r.count(CommandKind.SET, CommandOutcome.SKIPPED_DEAD));
        assertEquals(1, r.count(CommandKind.SET, CommandOutcome.REFUSED));
        assertEquals(1, r.count(CommandKind.SPAWN, CommandOutcome.APPLIED));
        assertEquals(6, r.applied());
        assertEquals(3, r.skippedDead());
        assertEquals(1, r.removedMissing());
        assertEquals(1, r.rejected());
        assertEquals(5, r.messages().size(), r.messages().toString());
        assertTrue(r.messages().get(0).contains("despawn") && r.messages().get(0).contains("'reap'"),
                r.messages().toString());
        assertTrue(r.firstRefusal().contains("set") && r.firstRefusal().contains("Pos")
                && r.firstRefusal().contains("'burn'"), r.firstRefusal());
        assertTrue(r.toString().contains("set{applied=1,skipped_dead=1,refused=1}"), r.toString());

        PlaybackReport total = new PlaybackReport();
        total.add(r);
        total.add(r);
        assertEquals(2, total.count(CommandKind.SET, CommandOutcome.REFUSED));
        assertEquals(12, total.applied());
        assertEquals(10, total.messages().size());
    }

    @Test
    void shouldThrowInStrictModeNamingTheSystemAndCommandAfterApplyingTheRest() {
        Scene lenient = new Scene();
        new CommandPlayback().strict(false).apply(lenient.w, java.util.List.of(lenient.damage, lenient.reap));
        Scene s = new Scene();
        CommandPlayback playback = new CommandPlayback().strict(true);
        playback.systemNames(PlaybackOutcomeTest::names);
        RefusedCommandException ex = assertThrows(RefusedCommandException.class, () -> s.play(playback));
        assertTrue(ex.getMessage().contains("'burn'") && ex.getMessage().contains("set")
                && ex.getMessage().contains("Pos"), ex.getMessage());
        assertEquals(2, ex.systemOrder());
        assertEquals(1, ex.report().rejected());
        assertEquals(lenient.w.stateHash(), s.w.stateHash(), "strict applies the same as lenient before throwing");
        assertTrue(s.damage.isEmpty() && s.reap.isEmpty());
        assertTrue(s.w.has(s.a, s.burning));
        assertFalse(s.w.isAlive(s.b));
    }

    @Test
    void shouldNotThrowInStrictModeForSkipsAndNoOps() {
        Scene s = new Scene();
        s.damage.clear();
        s.damage.beginChunk(2, 0);
        s.damage.add(s.b, s.burning);
        s.damage.remove(s.a, s.burning);
        PlaybackReport r = new CommandPlayback().strict(true).apply(s.w, java.util.List.of(s.damage, s.reap));
        assertEquals(2, r.skippedDead());
        assertEquals(1, r.removedMissing());
        assertNull(r.firstRefusal());
        assertEquals(-1, r.firstRefusalSystemOrder());
    }

    @Test
    void shouldBeStrictByDefaultUnderAssertions() {
        boolean assertions = false;
        assert assertions = true;
        String forced = System.getProperty(CommandPlayback.STRICT_PROPERTY);
        boolean expected = forced != null ? Boolean.parseBoolean(forced) : assertions;
        assertEquals(expected, new CommandPlayback().isStrict());
        assertTrue(assertions || forced != null, "tests run with -ea, so strict mode is on in tests");
    }

    @Test
    void shouldNumberTheSystemWhenNoNamesAreGiven() {
        Scene s = new Scene();
        RefusedCommandException ex = assertThrows(RefusedCommandException.class,
                () -> s.play(new CommandPlayback().strict(true)));
        assertTrue(ex.getMessage().contains("system #2"), ex.getMessage());
    }
}
