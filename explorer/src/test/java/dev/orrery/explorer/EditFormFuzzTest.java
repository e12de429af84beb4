package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Coverage-guided fuzzing of the edit form of {@code POST /api/edit}: the body's bytes read as
 * the route reads them ({@link Routes#query} on its UTF-8 text, then {@link EditForm#of}), then
 * checked against a small world ({@link FuzzWorld}) by {@link EditRules#check}. Whatever the
 * bytes, the only outcomes are a refusal (an {@link IllegalArgumentException} for a bad
 * %-escape, a {@link QueryText.BadQuery}, both answered 400; or {@code check}'s reason,
 * answered 409) or an edit whose component and field exist and whose value parses as the
 * field's type; never another exception. The body is bounded by {@link WebServer#MAX_BODY}.
 * {@code mvn verify} runs the committed corpus ({@code EditFormFuzzTestInputs/readEditForm}); a
 * longer run is described in docs/design/engine-and-cluster.md.
 */
class EditFormFuzzTest {
    private static final EditSink SINK = new EditSink() {
        @Override
        public String submit(Edit edit) {
            return null;
        }

        @Override
        public String readOnly(String component, String field) {
            return component.equals("Health") && field.equals("hp") ? null
                    : component.equals("Frozen") ? "frozen" : null;
        }
    };

    @FuzzTest(maxDuration = "10m")
    void readEditForm(byte[] body) {
        if (body.length > WebServer.MAX_BODY) {
            return; // the request reader refuses a longer body (413)
        }
        EditForm form;
        try {
            Map<String, String> fields = Routes.query(new String(body, StandardCharsets.UTF_8));
            form = EditForm.of(fields);
        } catch (IllegalArgumentException refused) { // BadQuery included
            assertTrue(refused.getMessage() != null && !refused.getMessage().isBlank(), "a refusal says why");
            return;
        }
        assertTrue(form.value().length() <= EditForm.MAX_VALUE && !form.component().isBlank()
                && !form.field().isBlank(), form.toString());
        FuzzWorld w = new FuzzWorld();
        EditRules rules = new EditRules(SINK, w.world);
        String no = rules.check(w.world, form.component(), form.field(), form.value());
        if (no != null) {
            assertTrue(!no.isBlank() && no.length() < 1_000 + form.component().length() + form.field().length(), no);
            return;
        }
        Component<?> c = w.world.columns().stream().filter(x -> x.name().equals(form.component())).findFirst()
                .orElseThrow(() -> new AssertionError("an edit of a component that is not there passed: " + form));
        Field f = c.fields().stream().filter(x -> x.name().equals(form.field())).findFirst()
                .orElseThrow(() -> new AssertionError("an edit of a field that is not there passed: " + form));
        assertNotNull(EditRules.parse(f.type(), form.value()), "a value not of the field's type passed: " + form);
    }
}
