package dev.orrery.explorer;

import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Range;
import dev.orrery.ecs.component.Storage;

/**
 * A small world for the explorer's fuzz tests of what the page types: a component of every
 * primitive field type, two instances of one record, a sparse column, a tag, a case-only name
 * clash and {@code ChildOf} pairs, with a few entities; a new one for each input, so an input
 * replays alone.
 */
final class FuzzWorld {
    record Pos(float x, float y) {
    }

    record Health(@Range(min = 0, max = 100) int hp) {
    }

    record Marked(int level) {
    }

    record Frozen() {
    }

    record Every(boolean on, byte b, short s, int i, long l, float f, double d, char c) {
    }

    final World world = new World();
    final Component<Pos> pos = world.component(Pos.class);
    final Component<Pos> target = world.component(Pos.class, "Target");
    final Component<Pos> targetLower = world.component(Pos.class, "target");
    final Component<Health> health = world.component(Health.class);
    final Component<Marked> marked = world.component(Marked.class, Storage.SPARSE);
    final Component<Frozen> frozen = world.component(Frozen.class);
    final Component<Every> every = world.component(Every.class);
    final Relation childOf = world.relations().childOf();
    final long parent;

    FuzzWorld() {
        parent = world.spawn(new Pos(0, 0), new Frozen());
        for (int i = 0; i < 40; i++) {
            long e = i % 2 == 0 ? world.spawn(new Pos(i, i), new Health(i)) : world.spawn(new Pos(i, -i), new Every(
                    i % 3 == 0, (byte) i, (short) i, i, i, i, i, 'x'));
            if (i % 4 == 0) {
                world.add(e, marked, new Marked(i));
            }
            if (i % 5 == 0) {
                world.relations().add(e, childOf, parent);
            }
            if (i % 7 == 0) {
                world.add(e, target, new Pos(1, 1));
            }
        }
    }
}
