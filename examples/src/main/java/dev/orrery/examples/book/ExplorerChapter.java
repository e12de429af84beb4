package dev.orrery.examples.book;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.ecs.component.Range;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.Simulation;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.explorer.Edit;
import dev.orrery.explorer.EditSink;
import dev.orrery.explorer.Explorer;
import dev.orrery.explorer.ExplorerOptions;
import dev.orrery.explorer.MapPoints;
import dev.orrery.explorer.MapSource;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The code of docs/the-explorer.md. Run it with a port (0: a free one) and open the address it prints. */
public final class ExplorerChapter {
    private ExplorerChapter() {}

    record Position(float x, float y) {}
    record Health(@Range(min = 0, max = 100) int hp) {}

    static final int SET_HP = 9;

    // snippet:edits
    /** Edits from the page become inputs: journaled with the rest, applied on a coming tick. */
    static final class HealthEdits implements EditSink {
        private final InputPipeline inputs;
        private final Map<Long, Edit> waiting = new ConcurrentHashMap<>();

        HealthEdits(InputPipeline inputs) {
            this.inputs = inputs;
        }

        @Override
        public String readOnly(String component, String field) {        // the page shows why
            return component.equals("Health") && field.equals("hp") ? null : "only Health.hp may be edited here";
        }

        @Override
        public String submit(Edit edit) {
            int hp;
            try {
                hp = Integer.parseInt(edit.value());
            } catch (NumberFormatException e) {
                return "Health.hp takes a whole number";            // refused at once, shown on the page
            }
            byte[] payload = ByteBuffer.allocate(20).putLong(edit.entity()).putInt(hp).putLong(edit.id()).array();
            waiting.put(edit.id(), edit);
            return inputs.tryPublish(0, SET_HP, payload, 0, payload.length) ? null : "busy: retry";
        }

        /** Reports edit {@code id}'s outcome: applied at {@code tick}, or refused for {@code why}. */
        void settle(long id, long tick, String why) {
            Edit edit = waiting.remove(id);                          // none in a replay: no page waits
            if (edit != null && why == null) edit.applied(tick);
            if (edit != null && why != null) edit.refused(why);
        }
    }
    // end:edits

    // snippet:apply-edits
    static void applyEdits(World w, InputBatch in, long tick, HealthEdits page) {   // an exclusive system's body
        for (int k = 0; k < in.size(); k++) {
            if (in.type(k) != SET_HP) continue;
            long entity = in.payloadLong(k, 0);
            String why = null;
            try {
                w.setProperty(entity, "Health", "hp", in.payloadInt(k, 8));   // checked: @Range
            } catch (IllegalArgumentException refused) {           // InvalidFieldValueException is one
                why = refused.getMessage();                        // a bad value or a dead entity, every replay alike
            }
            page.settle(in.payloadLong(k, 12), tick, why);
        }
    }
    // end:apply-edits

    // snippet:map
    static MapSource map(World world, Query units, Field x, Field y) {
        return new MapSource() {
            @Override public List<String> kinds() { return List.of("Unit"); }
            @Override public float width() { return 1000; }
            @Override public float height() { return 1000; }

            @Override
            public void sample(MapPoints points) {                 // the tick thread, between ticks
                units.forEachChunkReadOnly(c -> {                  // read-only: no change tick taken
                    float[] xs = c.readFloats(x), ys = c.readFloats(y);
                    for (int i = 0; i < c.size(); i++) points.add(c.entity(i), xs[i], ys[i], 0);
                });
            }
        };
    }
    // end:map

    public static void main(String[] args) throws Exception {
        ProgramArgs.atMost("ExplorerChapter", args, "port", "ticks");
        int port = ProgramArgs.number("ExplorerChapter", args, 0, "port", 0, 0, 65_535); // 0: any free one
        int ticks = ProgramArgs.number("ExplorerChapter", args, 1, "ticks", 120, 1, 1_000_000);
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        world.component(Health.class);
        for (int i = 0; i < 1000; i++) {
            world.spawn(new Position(i % 1000, i / 1000f), new Health(100));
        }
        InputPipeline inputs = InputPipeline.builder().build();
        HealthEdits edits = new HealthEdits(inputs);
        Simulation sim = Simulation.builder(world).inputs(inputs)
                .systems(s -> s.system("apply edits").exclusive((w, job) -> applyEdits(w,
                        job.resource(Simulation.INPUTS), job.resource(Simulation.CLOCK).tick(), edits)))
                .build();
        Query units = world.query().with(pos).build();
        // snippet:attach
        ExplorerOptions options = ExplorerOptions.loopback(port)    // 127.0.0.1 only
                .withEdits(edits)                                    // leave out: read-only
                .withMap(map(world, units, pos.field("x"), pos.field("y")));
        Explorer explorer = Explorer.attach(sim, options);          // on the tick thread, between ticks
        System.out.println("explorer at " + explorer.url());
        sim.run(ticks, 60.0);                                        // look while it runs
        explorer.close();
        // end:attach
        sim.close();
        inputs.close();
        System.out.println("explorer chapter: ok");
    }
}
