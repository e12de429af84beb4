package dev.orrery.examples;

import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.ecs.component.Range;

/**
 * Named instances, the idea of the Stingray engine's entity index: one component type
 * ({@code RenderData}) held twice by the same entity under two names ("Fog" and "Vignette"),
 * entities spawned from a named {@link Template}, and fields read and written by name
 * ("Fog", "density"), as an editor, a script or a network message would, checked against the
 * field's {@link Range}. Prints what it reads back and the world's state hash.
 */
public final class NamedInstances {
    // snippet:components
    record Transform(float x, float y, float z) {}
    record RenderData(@Range(min = 0, max = 1) float density, float falloff) {}   // outside input stays in 0..1
    // end:components

    private NamedInstances() {
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("NamedInstances", args);
        World world = new World();
        // snippet:instances
        Component<Transform> transform = world.component(Transform.class);
        Component<RenderData> fog = world.component(RenderData.class, "Fog");           // one type,
        Component<RenderData> vignette = world.component(RenderData.class, "Vignette"); // two instances
        long camera = world.entity().with(transform, new Transform(0, 2, -5))
                .with(fog, new RenderData(0.2f, 8)).with(vignette, new RenderData(0.6f, 1)).spawn();
        // end:instances
        // snippet:template
        Template lamp = Template.named("Lamp")                   // a named list of named instances and values
                .with(transform, new Transform(0, 0, 0))
                .with(fog, new RenderData(0.1f, 2))
                .build();
        long[] street = world.spawnMany(lamp, 100);             // in bulk, sharing one prototype
        long porch = world.spawn(lamp);
        // end:template
        // snippet:by-name
        Object density = world.getProperty(camera, "Fog", "density");   // boxed: for tools, not for hot loops
        world.setProperty(camera, "Vignette", "density", 0.9f);         // checked against @Range
        PropertyHandle lampFog = world.property("Fog", "density");      // names resolved once, for many calls
        for (long e : street) {
            lampFog.setFloat(e, 0.5f);
        }
        System.out.printf("camera: Fog.density=%s Vignette.density=%s, holds %s%n", density,
                world.getProperty(camera, "Vignette", "density"), world.findComponent(camera, "Vignette"));
        System.out.printf("lamps: street Fog.density=%s, porch Fog.density=%s%n", lampFog.getFloat(street[0]),
                lampFog.getFloat(porch));
        try {
            world.setProperty(porch, "Fog", "density", 2f);             // outside the range: refused, nothing written
        } catch (InvalidFieldValueException e) {
            System.out.println("refused: " + e.getMessage());
        }
        // end:by-name
        System.out.printf("%d entities: hash=%016x%n", world.entityCount(), world.stateHash());
    }
}
