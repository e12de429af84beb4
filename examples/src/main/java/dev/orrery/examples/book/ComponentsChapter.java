package dev.orrery.examples.book;

import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldValidator;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.ecs.component.Range;
import dev.orrery.ecs.component.StaleEntityException;
import dev.orrery.ecs.component.Storage;
import dev.orrery.examples.ProgramArgs;
import java.util.ArrayList;
import java.util.List;

/** The code of docs/components-and-storage.md. Run it: every region runs once, under -ea if you like. */
public final class ComponentsChapter {
    private ComponentsChapter() {}

    // snippet:records
    record Position(float x, float y, float z) {}
    record Velocity(float x, float y, float z) {}
    record Health(int hp, int max) {}
    record Frozen() {}                            // no fields: a tag
    record Burning(float heat) {}
    // end:records

    // snippet:reference-type
    static final class Inventory {                // any class: stored by reference
        final List<String> items = new ArrayList<>();
    }
    // end:reference-type

    // snippet:range
    record Agent(@Range(min = 0, max = 63) int squad,
                 @Range(min = 0, max = 10) float speed,
                 int team) {}
    // end:range

    record RenderData(float density) {}

    static void registration() {
        // snippet:register
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Health> health = world.component(Health.class);
        Field px = pos.field("x");                       // a field of a component, by name
        Field hp = health.field("hp");
        // end:register

        // snippet:spawn
        long e = world.spawn(new Position(0, 0, 0), new Velocity(1, 0, 0));    // now and then
        long[] crowd = world.entity()                                           // many alike
                .with(pos, new Position(0, 0, 0))
                .with(vel, new Velocity(0, 1, 0))
                .spawnMany(100_000);
        // end:spawn

        // snippet:shape
        Shape bullet = world.shape(pos, vel);            // prepared once
        long b = bullet.spawn(new Position(1, 2, 0), new Velocity(9, 0, 0));
        Field vx = vel.field("x");
        long c = bullet.spawnRow()                       // no record built at all
                .setFloat(px, 1).setFloat(vx, 9)
                .id();
        // end:shape

        // snippet:shape-bulk
        bullet.reserve(10_000);                          // grow storage before a burst
        long[] wave = bullet.spawnMany(10_000, (rows, from, to, first) -> {
            float[] x = rows.writeFloats(px);
            float[] v = rows.writeFloats(vx);
            for (int r = from; r < to; r++) {
                x[r] = first + (r - from);               // entity number first + (r - from)
                v[r] = 5;
            }
        });
        // end:shape-bulk

        // snippet:by-id
        float x = world.getFloat(e, px);                 // one field
        world.setFloat(e, px, x + 1);
        Position p = world.get(e, pos);                  // a whole value, as a new record
        world.set(e, pos, new Position(p.x(), 5, 0));
        boolean moving = world.has(e, vel);
        world.despawn(b);
        // end:by-id

        // snippet:entity-ids
        long id = world.spawn(new Health(10, 10));
        int index = Entity.index(id);                    // the slot in the entity table
        int generation = Entity.generation(id);          // which use of that slot
        String name = Entity.toString(id);               // "100014v1": how messages print it
        world.despawn(id);
        try {
            world.getInt(id, hp);                        // a stale id is never served
        } catch (StaleEntityException expected) {
            // the index may hold another entity now; its generation differs
        }
        // end:entity-ids
        if (index < 0 || generation < 1 || name.isEmpty() || crowd.length != 100_000 || wave.length != 10_000
                || !moving || c == 0) {
            throw new AssertionError();
        }
    }

    static void tagsAndReferences() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        long e = world.spawn(new Position(0, 0, 0));
        // snippet:tags
        Component<Frozen> frozen = world.component(Frozen.class);
        world.add(e, frozen);                            // moves e to the archetype {Position, Frozen}
        boolean stuck = world.has(e, frozen);
        world.remove(e, frozen);                         // and back
        // end:tags

        // snippet:reference
        Component<Inventory> inventory = world.referenceComponent(Inventory.class);
        Inventory bag = new Inventory();
        bag.items.add("rope");
        world.add(e, inventory, bag);
        world.get(e, inventory).items.add("lamp");       // the same object, not a copy
        world.query().with(inventory).build().forEachChunk(chunk -> {
            Object[] bags = chunk.readObjects(inventory);
            for (int i = 0; i < chunk.size(); i++) {
                ((Inventory) bags[i]).items.sort(null);
            }
        });
        // end:reference
        if (!stuck || bag.items.size() != 2) {
            throw new AssertionError();
        }
    }

    static void sparse() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        long e = world.spawn(new Position(0, 0, 0));
        // snippet:sparse
        Component<Burning> burning = world.component(Burning.class, Storage.SPARSE);
        world.add(e, burning, new Burning(3));           // e's row does not move
        world.setFloat(e, burning.field("heat"), 4);
        world.remove(e, burning);                        // nor here
        // end:sparse
        world.add(e, burning, new Burning(1));
        // snippet:sparse-read
        world.query().with(pos).optional(burning).build().forEachChunk(chunk -> {
            float[] x = chunk.writeFloats(pos.field("x"));
            for (int i = 0; i < chunk.size(); i++) {
                if (chunk.has(burning, i)) {             // sparse: asked row by row
                    x[i] -= chunk.get(burning, i).heat();
                }
            }
        });
        // end:sparse-read
    }

    static void validated() {
        World world = new World();
        // snippet:validated
        Component<Agent> agent = world.component(Agent.class);
        Field speed = agent.field("speed");
        long e = world.spawn(new Agent(3, 1, 0));
        world.setFloat(e, speed, 7.5f);                  // in range: written
        try {
            world.setFloat(e, speed, 12f);               // out of range: refused, nothing written
        } catch (InvalidFieldValueException refused) {
            System.out.println(refused.getMessage());    // names entity, Agent.speed, value and rule
        }
        // end:validated

        int teams = 4;
        // snippet:validator
        world.validator(agent.field("team"), FieldValidator.range(0, teams - 1));
        world.validator(agent.field("squad"),
                FieldValidator.ofLongs("an even squad", v -> v % 2 == 0));
        world.checkWrite(e, agent.field("team"), 2);     // checks without writing; throws if refused
        // end:validator

        // snippet:unvalidated
        world.unvalidated().setFloat(e, speed, 50f);     // trusted engine code: no rules checked
        world.set(e, agent, new Agent(3, 99, 0));        // a whole record is trusted too
        // end:unvalidated
        if (world.getFloat(e, speed) != 99f) {
            throw new AssertionError();
        }
    }

    static void named() {
        World world = new World();
        // snippet:named-brief
        Component<RenderData> fog = world.component(RenderData.class, "Fog");
        Component<RenderData> vignette = world.component(RenderData.class, "Vignette");
        long camera = world.entity()
                .with(fog, new RenderData(0.2f))
                .with(vignette, new RenderData(0.8f))
                .spawn();
        float density = world.getFloat(camera, fog.field("density"));    // the Fog one
        // end:named-brief
        if (density != 0.2f) {
            throw new AssertionError();
        }
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("ComponentsChapter", args);
        registration();
        tagsAndReferences();
        sparse();
        validated();
        named();
        System.out.println("components chapter: ok");
    }
}
