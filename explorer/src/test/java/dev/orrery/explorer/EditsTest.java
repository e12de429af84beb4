package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Edits that tell the truth: every edit has a number; a field the application or the explorer
 * will refuse is shown read-only with the reason and refused before the sink; a refusal of
 * the sink is a refusal, never "taken"; a taken edit waits for its outcome, then shows the
 * tick that applied it or the simulation's reason; of two edits of one field applied in one
 * tick the earlier is superseded.
 */
class EditsTest {
    private final List<Edit> submitted = new CopyOnWriteArrayList<>();
    private final Map<Long, Edit> byId = new ConcurrentHashMap<>();
    private final EditSink sink = new EditSink() {
        @Override
        public String submit(Edit edit) {
            if (edit.value().equals("99")) { // a value the world takes: the sink alone refuses it
                return "BUSY the input queue is full; retry in a moment";
            }
            submitted.add(edit);
            byId.put(edit.id(), edit);
            return null;
        }

        @Override
        public String readOnly(String component, String field) {
            return component.equals("Vel") ? "FORBIDDEN " + component + "." + field + " is server-owned" : null;
        }
    };

    @Test
    void shouldNumberEachEditAndShowItsOutcome() throws Exception {
        try (Fixture f = new Fixture(30, 1, 0, (fx, o) -> o.withEdits(sink)).start()) {
            Client c = f.client;
            long unit = f.units[3];
            String entity = c.getTicking("/api/entity?id=" + unit).body();
            assertTrue(entity.contains("{\"name\":\"hp\",\"type\":\"INT\",\"value\":\"100\",\"editable\":true}"),
                    entity);
            assertTrue(entity.contains("\"name\":\"x\",\"type\":\"FLOAT\",\"value\":\"") && entity.contains(
                    "\"editable\":false,\"readOnly\":\"FORBIDDEN Vel.x is server-owned\""), entity);
            assertTrue(entity.contains("{\"name\":\"target\",\"type\":\"LONG\",\"value\":\"" + f.squads[0]
                    + "\",\"editable\":false,\"readOnly\":\"ChildOf.target is the relation's target"), entity);

            HttpResponse<String> forbidden = c.edit("entity=" + unit + "&component=Vel&field=x&value=3");
            assertEquals(409, forbidden.statusCode(), forbidden.body());
            assertTrue(forbidden.body().contains("\"id\":1,") && forbidden.body().contains("\"status\":\"refused\"")
                    && forbidden.body().contains("server-owned"), forbidden.body());
            HttpResponse<String> relation = c.edit("entity=" + unit + "&component=ChildOf&field=target&value=3");
            assertEquals(409, relation.statusCode(), relation.body());
            assertTrue(submitted.isEmpty(), "a read-only field never reaches the sink");

            HttpResponse<String> busy = c.edit("entity=" + unit + "&component=Health&field=hp&value=99");
            assertEquals(409, busy.statusCode());
            assertTrue(busy.body().contains("\"status\":\"refused\",\"reason\":\"BUSY the input queue is full"),
                    "a refusal is never taken: " + busy.body());

            HttpResponse<String> taken = c.edit("entity=" + unit + "&component=Health&field=hp&value=-5");
            assertEquals(202, taken.statusCode(), taken.body());
            assertTrue(taken.body().contains("\"id\":4,") && taken.body().contains("\"status\":\"pending\""),
                    taken.body());
            Edit bad = submitted.get(0);
            assertEquals(4, bad.id());
            bad.refused("BAD_VALUE Health.hp = -5 is refused; Health.hp takes 0 to 100");
            bad.applied(99); // a later report does not change the first

            c.edit("entity=" + unit + "&component=Health&field=hp&value=50");
            c.edit("entity=" + unit + "&component=Health&field=hp&value=60");
            submitted.get(1).applied(40);
            submitted.get(2).applied(40); // the same field in the same tick: the later stands
            c.edit("entity=" + unit + "&component=Health&field=hp&value=70"); // no outcome yet

            String edits = c.get("/api/edits?entity=" + unit).body();
            assertTrue(edits.contains("{\"id\":7,\"entity\":" + unit + ",\"component\":\"Health\",\"field\":\"hp\","
                    + "\"value\":\"70\",\"status\":\"pending\",\"text\":\"taken; waiting for the tick that applies "
                    + "it\"}"),
                    edits);
            assertTrue(edits.contains("{\"id\":6,\"entity\":" + unit + ",\"component\":\"Health\",\"field\":\"hp\","
                    + "\"value\":\"60\",\"status\":\"applied\",\"tick\":40,\"text\":\"applied at tick 40\"}"), edits);
            assertTrue(edits.contains("\"id\":5,") && edits.contains("\"status\":\"superseded\",\"tick\":40,\"by\":6"),
                    edits);
            assertTrue(edits.contains("\"value\":\"-5\",\"status\":\"refused\",\"reason\":\"BAD_VALUE Health.hp "
                    + "= -5 is refused; Health.hp takes 0 to 100\""), edits);
            assertTrue(edits.indexOf("\"id\":7") < edits.indexOf("\"id\":6"), "newest first: " + edits);
            assertTrue(c.get("/api/edits?entity=" + f.units[4]).body().contains("\"list\":[]"), "per entity");

            assertEquals(400, c.edit("entity=" + unit + "&component=Health&value=1").statusCode(), "no field");
            assertEquals(400, c.edit("entity=twelve&component=Health&field=hp&value=1").statusCode());
        }
    }

    @Test
    void shouldNameAMistypedComponentOrFieldRatherThanTheSinksReason() throws Exception {
        EditSink allowList = new EditSink() { // as the demo's: every name outside its allow-list is refused
            @Override
            public String submit(Edit edit) {
                submitted.add(edit);
                return null;
            }

            @Override
            public String readOnly(String component, String field) {
                return component.equals("Health") && field.equals("hp") ? null
                        : "FORBIDDEN " + component + "." + field + " is server-owned; clients may SET Health.hp";
            }
        };
        try (Fixture f = new Fixture(30, 1, 0, (fx, o) -> o.withEdits(allowList)).start()) {
            long unit = f.units[3];
            HttpResponse<String> field = f.client.edit("entity=" + unit + "&component=Health&field=hpx&value=1");
            assertEquals(409, field.statusCode(), field.body());
            assertTrue(field.body().contains("\"reason\":\"Health has no field 'hpx'; its fields are hp\""),
                    "the mistake, not 'server-owned': " + field.body());
            HttpResponse<String> component = f.client.edit("entity=" + unit + "&component=Helth&field=hp&value=1");
            assertTrue(component.body().contains("\"reason\":\"no component named 'Helth'"), component.body());
            HttpResponse<String> owned = f.client.edit("entity=" + unit + "&component=Vel&field=x&value=1");
            assertTrue(owned.body().contains("FORBIDDEN Vel.x is server-owned"), "a real field: the sink's reason");
            assertTrue(submitted.isEmpty(), "none reached the sink");
        }
    }

    @Test
    void shouldShowEveryFieldReadOnlyWhileEditsAreOff() throws Exception {
        try (Fixture f = new Fixture(10, 1, 0, (fx, o) -> o).start()) {
            String entity = f.client.getTicking("/api/entity?id=" + f.units[0]).body();
            assertTrue(!entity.contains("\"editable\":true") && entity.contains("\"readOnly\":\"edits are off"),
                    entity);
            HttpResponse<String> edit = f.client.edit("entity=" + f.units[0] + "&component=Health&field=hp&value=1");
            assertEquals(403, edit.statusCode(), edit.body());
        }
    }
}
