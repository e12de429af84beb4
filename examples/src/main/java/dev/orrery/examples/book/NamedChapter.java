package dev.orrery.examples.book;

import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.ecs.component.Range;
import dev.orrery.examples.ProgramArgs;

/** The code of docs/named-instances-templates-properties.md. */
public final class NamedChapter {
    private NamedChapter() {}

    // snippet:types
    record Transform(float x, float y, float z) {}
    record RenderData(@Range(min = 0, max = 1) float density, int layer) {}
    // end:types

    public static void main(String[] args) {
        ProgramArgs.atMost("NamedChapter", args);
        World world = new World();
        // snippet:columns
        Component<Transform> transform = world.component(Transform.class);     // named "Transform"
        Component<RenderData> fog = world.component(RenderData.class, "Fog");
        Component<RenderData> vignette = world.component(RenderData.class, "Vignette");
        // end:columns

        // snippet:template
        Template lamp = Template.named("Lamp")
                .with(transform, new Transform(0, 0, 0))
                .with(fog, new RenderData(0.2f, 1))          // RenderData:Fog
                .with(vignette, new RenderData(0.8f, 2))     // RenderData:Vignette
                .build();
        long one = world.spawn(lamp);
        long[] street = world.spawnMany(lamp, 10_000);       // one chain walk for all of them
        // end:template

        // snippet:find
        Component<?> found = world.findComponent(one, "Fog");        // the column, or null
        Component<?> none = world.findComponent(one, "Bloom");       // null: no such instance
        // end:find

        // snippet:properties
        Object density = world.getProperty(one, "Fog", "density");   // boxed: 0.2f
        world.setProperty(one, "Vignette", "density", 0.5f);         // checked against @Range
        try {
            world.setProperty(one, "Fog", "density", 3f);
        } catch (InvalidFieldValueException refused) {
            // out of range: nothing written
        }
        // end:properties

        // snippet:handle
        PropertyHandle fogDensity = world.property("Fog", "density");  // names hashed once
        for (long e : street) {
            fogDensity.setFloat(e, fogDensity.getFloat(e) * 0.5f);     // no strings, no boxing
        }
        // end:handle

        // snippet:builder
        long camera = world.entity()
                .with(transform, new Transform(0, 5, -10))
                .with(fog, new RenderData(0.1f, 0))
                .spawn();                                    // a one-off with named instances
        // end:builder

        if (found != fog || none != null || !density.equals(0.2f) || world.getFloat(street[0], fog.field("density")) != 0.1f
                || world.findComponent(camera, "Vignette") != null) {
            throw new AssertionError();
        }
        System.out.println("named chapter: ok");
    }
}
