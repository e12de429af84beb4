package dev.orrery.scheduler.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.OrderCycleException;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.access.SystemAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class SystemGraphTest {
    record Position(float x) {
    }

    record Velocity(float x) {
    }

    record Health(int hp) {
    }

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Velocity> vel = world.component(Velocity.class);
    private final Component<Health> health = world.component(Health.class);
    private final List<SystemDeclaration> decls = new ArrayList<>();
    private static final List<Phase> PHASES = List.of(Phase.PRE_UPDATE, Phase.UPDATE, Phase.POST_UPDATE);

    private void declare(String name, Phase phase, UnaryOperator<SystemAccess.Builder> access, List<String> before,
            List<String> after) {
        decls.add(new SystemDeclaration(name, access.apply(SystemAccess.builder(name)).build(), phase, before, after));
    }

    private void declare(String name, UnaryOperator<SystemAccess.Builder> access) {
        declare(name, Phase.UPDATE, access, List.of(), List.of());
    }

    private SystemGraph build() {
        return SystemGraph.build(decls, PHASES);
    }

    private static String edge(SystemGraph g, SystemGraph.Edge e) {
        return g.system(e.from()).name() + "->" + g.system(e.to()).name() + ":" + e.label();
    }

    private static List<String> edges(SystemGraph g) {
        List<String> out = new ArrayList<>();
        for (SystemGraph.Edge e : g.edges()) {
            out.add(edge(g, e));
        }
        return out;
    }

    @Test
    void shouldAddAnEdgeLabelledWithTheComponentForEachConflictingPair() {
        declare("move", a -> a.reads(vel).writes(pos));
        declare("render", a -> a.reads(pos));
        declare("physics", a -> a.writes(vel));
        declare("regen", a -> a.writes(health));
        SystemGraph g = build();
        assertEquals(List.of("move->render:Position", "move->physics:Velocity"), edges(g));
    }

    @Test
    void shouldLetReadersOfTheSameComponentRunTogether() {
        declare("a", a -> a.reads(pos));
        declare("b", a -> a.reads(pos, vel));
        assertEquals(List.of(), edges(build()));
    }

    @Test
    void shouldOrderConflictsOnResources() {
        ResourceKey<Long> time = ResourceKey.of("Time", Long.class);
        declare("clock", a -> a.writesResource(time));
        declare("ai", a -> a.readsResource(time));
        declare("log", a -> a.readsResource(time));
        assertEquals(List.of("clock->ai:Time", "clock->log:Time"), edges(build()));
    }

    @Test
    void shouldRunTheFirstRegisteredFirstUnlessAnExplicitOrderSaysOtherwise() {
        declare("late", Phase.UPDATE, a -> a.writes(pos), List.of(), List.of("early"));
        declare("early", a -> a.reads(pos));
        SystemGraph g = build();
        assertEquals("early", g.system(0).name());
        assertEquals(List.of("early->late:Position, order"), edges(g));
    }

    @Test
    void shouldMoveOnlyWhatAnExplicitOrderRequires() {
        declare("a", a -> a.writes(pos));
        declare("b", a -> a.reads(pos));
        declare("c", Phase.UPDATE, a -> a.reads(vel), List.of("a"), List.of());
        SystemGraph g = build();
        assertEquals(List.of("c", "a", "b"), List.of(g.system(0).name(), g.system(1).name(), g.system(2).name()),
                "c moves up to just before a; a keeps running before b, as registered");
        assertEquals(List.of("c->a:order", "a->b:Position"), edges(g));
    }

    @Test
    void shouldConnectAnExclusiveSystemToEveryOtherOfItsPhase() {
        declare("a", a -> a.reads(pos));
        declare("spawn", a -> a.exclusive());
        declare("b", a -> a.reads(vel));
        assertEquals(List.of("a->spawn:exclusive", "spawn->b:exclusive"), edges(build()));
    }

    @Test
    void shouldKeepPhasesApartAndInOrder() {
        declare("post", Phase.POST_UPDATE, a -> a.writes(pos), List.of(), List.of());
        declare("pre", Phase.PRE_UPDATE, a -> a.writes(pos), List.of(), List.of());
        SystemGraph g = build();
        assertEquals("pre", g.system(0).name());
        assertEquals(List.of(), edges(g), "phases are barriers; no edge crosses them");
        assertEquals(1, g.phaseStart(1));
        assertEquals(1, g.phaseEnd(1));
    }

    @Test
    void shouldRejectACycleSpellingItOutByName() {
        declare("a", Phase.UPDATE, x -> x, List.of(), List.of("c"));
        declare("b", Phase.UPDATE, x -> x, List.of(), List.of("a"));
        declare("c", Phase.UPDATE, x -> x, List.of(), List.of("b"));
        declare("d", Phase.UPDATE, x -> x, List.of(), List.of());
        OrderCycleException e = assertThrows(OrderCycleException.class, this::build);
        assertEquals("explicit order in phase Update forms a cycle: a -> b -> c -> a; remove or reverse one of these "
                + "before/after constraints", e.getMessage());
        assertEquals(List.of("a", "b", "c", "a"), e.cycle());
    }

    @Test
    void shouldRejectASystemOrderedAfterItself() {
        declare("a", Phase.UPDATE, x -> x, List.of("a"), List.of());
        OrderCycleException e = assertThrows(OrderCycleException.class, this::build);
        assertTrue(e.getMessage().contains("a -> a"), e.getMessage());
    }

    @Test
    void shouldNameUnknownAndDuplicateSystemsAndPhaseContradictions() {
        declare("a", Phase.UPDATE, x -> x, List.of(), List.of("ghost"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, this::build);
        assertTrue(e.getMessage().contains("'a' is ordered after 'ghost'"), e.getMessage());

        decls.clear();
        declare("a", x -> x);
        declare("a", x -> x);
        e = assertThrows(IllegalArgumentException.class, this::build);
        assertTrue(e.getMessage().contains("two systems are named 'a'"), e.getMessage());

        decls.clear();
        declare("late", Phase.POST_UPDATE, x -> x, List.of("early"), List.of());
        declare("early", Phase.PRE_UPDATE, x -> x, List.of(), List.of());
        e = assertThrows(IllegalArgumentException.class, this::build);
        assertTrue(e.getMessage().contains("'late' (phase PostUpdate) must run before 'early' (phase PreUpdate)"),
                e.getMessage());

        decls.clear();
        declare("odd", Phase.named("Physics"), x -> x, List.of(), List.of());
        e = assertThrows(IllegalArgumentException.class, this::build);
        assertTrue(e.getMessage().contains("phase Physics, which the schedule does not list"), e.getMessage());
    }

    @Test
    void shouldPrintDotAndText() {
        declare("input", Phase.PRE_UPDATE, a -> a.writes(vel), List.of(), List.of());
        declare("move", a -> a.reads(vel).writes(pos));
        declare("render", Phase.POST_UPDATE, a -> a.reads(pos), List.of(), List.of());
        declare("collide", a -> a.reads(pos).writes(health));
        SystemGraph g = build();
        String dot = g.toDot();
        assertTrue(dot.startsWith("digraph schedule {"), dot);
        assertTrue(dot.contains("label=\"Update\""), dot);
        assertTrue(dot.contains("\"move\" -> \"collide\" [label=\"Position\"];"), dot);
        assertTrue(dot.contains("\"input\" -> \"move\" [style=dashed, label=\"sync\""), dot);
        String text = g.toText();
        assertTrue(text.contains("phase Update (sync point at end)\n  1. move: reads [Velocity] writes [Position]\n"
                + "  2. collide: reads [Position] writes [Health]\n       after move (Position)\n"), text);
    }
}
