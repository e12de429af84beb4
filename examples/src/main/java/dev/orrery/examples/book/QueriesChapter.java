package dev.orrery.examples.book;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.WorldSnapshot;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.examples.ProgramArgs;

/** The code of docs/queries-and-chunk-views.md. */
public final class QueriesChapter {
    private QueriesChapter() {}

    record Position(float x, float y) {}
    record Velocity(float x, float y) {}
    record Health(int hp) {}
    record Frozen() {}
    record Player() {}
    record Npc() {}
    record Stunned(int ticks) {}

    public static void main(String[] args) {
        ProgramArgs.atMost("QueriesChapter", args);
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Health> health = world.component(Health.class);
        Component<Frozen> frozen = world.component(Frozen.class);
        Component<Player> player = world.component(Player.class);
        Component<Npc> npc = world.component(Npc.class);
        Component<Stunned> stunned = world.component(Stunned.class, Storage.SPARSE);
        for (int i = 0; i < 1000; i++) {
            long e = world.spawn(new Position(i, 0), new Velocity(1, 1), new Health(i % 10 - 1));
            world.add(e, i % 2 == 0 ? player : npc);
            if (i % 7 == 0) {
                world.add(e, stunned, new Stunned(3));
            }
        }
        world.spawn(new Position(0, 0));

        // snippet:build
        Query moving = world.query()
                .with(pos, vel)           // holds both
                .without(frozen)          // and not this one
                .build();
        // end:build

        // snippet:chunk-loop
        Field px = pos.field("x"), py = pos.field("y");
        Field vx = vel.field("x"), vy = vel.field("y");
        moving.forEachChunk(chunk -> {
            float[] x = chunk.writeFloats(px), y = chunk.writeFloats(py);
            float[] dx = chunk.readFloats(vx), dy = chunk.readFloats(vy);
            for (int i = 0, n = chunk.size(); i < n; i++) {
                x[i] += dx[i];
                y[i] += dy[i];
            }
        });
        // end:chunk-loop

        // snippet:any-optional
        Query actors = world.query()
                .with(pos)
                .any(player, npc)         // at least one of these
                .optional(health)         // may hold it; the loop asks
                .build();
        Field hp = health.field("hp");
        actors.forEachChunk(chunk -> {
            if (!chunk.has(health)) {
                return;                   // this archetype has no Health
            }
            int[] h = chunk.writeInts(hp);
            for (int i = 0, n = chunk.size(); i < n; i++) {
                h[i] = Math.min(h[i] + 1, 100);
            }
        });
        // end:any-optional

        // snippet:per-entity
        Query players = world.query().with(pos, player).build();
        players.forEach((view, row) -> {
            long entity = view.entity(row);
            Position p = view.get(pos, row);       // a new record: cold code only
            if (p.x() > 990) {
                System.out.println(Entity.toString(entity) + " is far east");
            }
        });
        int count = players.count();
        // end:per-entity

        byte[] beforeLooking = new WorldSnapshot().write(world);
        // snippet:read-only
        float[] eastmost = {Float.NEGATIVE_INFINITY};
        moving.forEachChunkReadOnly(chunk -> {     // a HUD, a report, a network send
            float[] x = chunk.readFloats(px);      // a write... accessor would be refused
            for (int i = 0, n = chunk.size(); i < n; i++) {
                eastmost[0] = Math.max(eastmost[0], x[i]);
            }
        });
        // end:read-only
        boolean unchanged = java.util.Arrays.equals(beforeLooking, new WorldSnapshot().write(world));

        // snippet:sparse-terms
        Query stunnedPlayers = world.query().with(player, stunned).build();
        stunnedPlayers.forEach((view, row) -> {
            int left = view.get(stunned, row).ticks();             // rows without it are skipped
            view.set(stunned, row, new Stunned(Math.max(0, left - 1)));
        });
        int exact = stunnedPlayers.count();                        // exact, sparse terms included
        // end:sparse-terms

        // snippet:defer
        CommandBuffer later = new CommandBuffer(0);
        long[] dead = {0};
        world.query().with(health).build().forEachChunk(chunk -> {
            int[] h = chunk.readInts(hp);
            long[] ids = chunk.entities();
            for (int i = 0, n = chunk.size(); i < n; i++) {
                if (h[i] <= 0) {
                    later.despawn(ids[i]);        // world.despawn here would throw
                    dead[0]++;
                }
            }
        });
        world.apply(later);                       // after the loop: applied in recording order
        // end:defer

        // snippet:bulk
        int stopped = world.addToAll(moving, frozen);      // every match, an archetype at a time
        int thawed = world.removeFromAll(world.query().with(frozen).build(), frozen);
        // end:bulk

        if (count != 500 || exact == 0 || stopped != thawed || dead[0] != 100 || !unchanged || eastmost[0] != 1000) {
            throw new AssertionError(count + " " + exact + " " + stopped + " " + thawed + " " + dead[0] + " "
                    + unchanged + " " + eastmost[0]);
        }
        System.out.println("queries chapter: ok");
    }
}
