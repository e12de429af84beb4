package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orrery.demo.arena.ArenaExplorer;
import dev.orrery.demo.arena.InputCodec;
import dev.orrery.demo.net.ServerConfig;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The explorer in a real browser: a recorded demo run with the explorer and edits on, its page
 * opened in headless Chromium (Debian's {@code chromium}, driven through the system
 * {@code chromedriver}; Selenium Manager never downloads anything). It checks that the chart's
 * figures update, the schedule graph renders as SVG with nodes, the inspector shows a live
 * agent's fields, and an edit from the page changes the world and is journaled as a client
 * {@code SET}; and that the agent's {@code ChildOf} box links its squad, whose children it lists. It saves a screenshot of each tab under {@code target/explorer-shots/}, or
 * under {@code docs/explorer/} (the README's pictures) when run with
 * {@code -Dorrery.explorer.shots=docs}, so an ordinary build leaves the tree as it was.
 *
 * <p>It fails, not skips, when the browser is missing: {@code .ci/install-browser} installs it.
 */
class ExplorerBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SHOTS = "docs".equals(System.getProperty("orrery.explorer.shots"))
            ? Path.of("..", "docs", "explorer") : Path.of("target", "explorer-shots");

    @TempDir
    Path tmp;

    @Test
    void shouldShowTheLiveSimulationAndJournalAnEditMadeOnThePage() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("the explorer's browser test needs " + CHROMIUM + " and " + CHROMEDRIVER
                    + "; run .ci/install-browser (it installs Debian's chromium and chromium-driver)");
        }
        Path recording = tmp.resolve("run");
        RunOptions options = new RunOptions(2_000, 2, 0, 2, 7, 60, 0, -1, ServerConfig.loopback(), recording, null, null,
                null, true).withExplorer(0, true);
        RunningDemo run = RunningDemo.start(options);
        WebDriver browser = null;
        String damage = "12.5";
        long edited;
        try {
            assertTrue(run.explorerPort() > 0, "no explorer port; log: " + run.log());
            browser = chromium();
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30)); // generous: CI machines are shared
            browser.get("http://127.0.0.1:" + run.explorerPort() + "/");

            // the chart's figures move: two reads of the tick differ, and the chart has drawn
            String first = wait.until(b -> text(b, "#fig-tick b"));
            wait.until(b -> { String now = text(b, "#fig-tick b"); return now != null && !now.equals(first) ? now : null; });
            assertNotEquals(first, text(browser, "#fig-tick b"));
            assertTrue(!browser.findElements(By.cssSelector("#chart canvas")).isEmpty(), "uPlot drew no canvas");
            wait.until(b -> b.findElements(By.cssSelector("#systems .bar")).size() >= 5);
            shot(browser, "overview");

            // the schedule graph renders: an SVG with a node per system
            browser.findElement(By.cssSelector("nav button[data-tab=schedule]")).click();
            wait.until(b -> b.findElements(By.cssSelector("#graph svg g.node")).size() >= 5);
            assertTrue(browser.findElement(By.id("graph-text")).getText().contains("phase"), "no graph text");
            shot(browser, "schedule");

            browser.findElement(By.cssSelector("nav button[data-tab=world]")).click();
            wait.until(b -> b.findElements(By.cssSelector("#archetypes tbody tr")).size() >= 1);
            assertTrue(browser.findElement(By.id("archetypes")).getText().contains("Secondary"), "no agent archetype");
            shot(browser, "world");

            browser.findElement(By.cssSelector("nav button[data-tab=map]")).click();
            wait.until(b -> ((JavascriptExecutor) b).executeScript("return mapPoints && mapPoints.points.length") != null);
            shot(browser, "map");

            // the inspector shows a live agent's fields; an edit from the page reaches the world
            edited = editSomeAgent(browser, wait, damage);
            shot(browser, "entity");

            // the agent's ChildOf box links its parent squad; following the link lists the
            // squad's children (held by N)
            browser.findElement(By.cssSelector("div[data-relation='ChildOf'] a[data-entity]")).click();
            wait.until(b -> {
                String squad = text(b, "div[data-relation='ChildOf']");
                return squad != null && squad.contains("held by ");
            });
            assertTrue(text(browser, "#entity-view").contains("Squad"),
                    "the parent link does not lead to a squad: " + text(browser, "#entity-view"));
        } finally {
            if (browser != null) {
                browser.quit();
            }
            run.stop();
        }
        run.finish();
        assertTrue(journaledEdit(recording.resolve(RunRecorder.JOURNAL), edited),
                "the page's edit of entity " + edited + " is not in the journal as a SET from the explorer");
    }

    /**
     * Edits Primary.damage of a live agent (retrying with another if the agent dies first);
     * returns its id. A failure lists what each try saw, so a slow machine and a refused
     * edit read differently.
     */
    private static long editSomeAgent(WebDriver browser, WebDriverWait wait, String damage) {
        StringBuilder tries = new StringBuilder();
        for (int attempt = 0; attempt < 3; attempt++) {
            // a fresh sample each try (the map tab loaded its points once), and another agent
            // of it: the one a stale sample named may have died since
            long id = ((Number) ((JavascriptExecutor) browser).executeAsyncScript(
                    "const done = arguments[arguments.length - 1], k = arguments[0];"
                    + "loadMap().then(() => { const agents = mapPoints.points.filter(p => p[3] < mapPoints.kinds.length - 1);"
                    + " done(agents[Math.min(k, agents.length - 1)][0]); });", attempt)).longValue();
            browser.findElement(By.cssSelector("nav button[data-tab=entity]")).click();
            WebElement input = browser.findElement(By.id("entity-id"));
            input.clear();
            input.sendKeys(Long.toString(id));
            browser.findElement(By.cssSelector("#entity-form button")).click();
            try {
                wait.until(b -> text(b, "td[data-field='Primary.damage']"));
            } catch (org.openqa.selenium.TimeoutException gone) {
                tries.append("; try ").append(attempt + 1).append(": entity ").append(id).append(" not shown: ")
                        .append(text(browser, "#entity-view"));
                continue; // the agent died between the map's sample and the lookup; take another
            }
            String text = browser.findElement(By.id("entity-view")).getText();
            assertTrue(text.contains("Health") && text.contains("hp") && text.contains("Secondary"),
                    "the inspector shows no agent fields: " + text);
            WebElement edit = browser.findElement(By.cssSelector("input[data-edit='Primary.damage']"));
            edit.clear();
            edit.sendKeys(damage);
            edit.findElement(By.xpath("following-sibling::button")).click();
            try {
                // the page looks again until the edit shows (up to 20 s, for a loaded machine)
                new WebDriverWait(browser, Duration.ofSeconds(25)).until(b -> {
                    String v = text(b, "td[data-field='Primary.damage']");
                    return v != null && Float.parseFloat(v) == Float.parseFloat(damage);
                });
                wait.until(b -> {
                    String result = text(b, "#edit-result");
                    return result != null && result.startsWith("taken") && result.endsWith("(applied)");
                });
                return id;
            } catch (org.openqa.selenium.TimeoutException died) {
                // the agent died before the edit was applied; take another
                tries.append("; try ").append(attempt + 1).append(": entity ").append(id).append(" edit result '")
                        .append(text(browser, "#edit-result")).append("', damage shown ")
                        .append(text(browser, "td[data-field='Primary.damage']")).append(", view: ")
                        .append(text(browser, "#entity-view"));
            }
        }
        throw new AssertionError("no edit from the page changed Primary.damage in three tries" + tries);
    }

    private static boolean journaledEdit(Path journal, long entity) throws Exception {
        byte[] scratch = new byte[InputCodec.MAX_PAYLOAD];
        try (JournalReader r = JournalReader.open(journal)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                InputBatch in = t.inputs();
                for (int i = 0; i < in.size(); i++) {
                    if (in.type(i) == InputCodec.SET && in.payloadLong(i, 0) == ArenaExplorer.CLIENT_ID
                            && in.payloadLong(i, 16) == entity) {
                        int n = in.copyPayload(i, scratch, 0);
                        String names = new String(scratch, 0, n, StandardCharsets.US_ASCII);
                        if (names.contains("Primary") && names.contains("damage")) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    private static WebDriver chromium() throws Exception {
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,1000",
                "--user-data-dir=" + Files.createTempDirectory("orrery-chromium"));
        return new ChromeDriver(service, o);
    }

    /**
     * The text of the first element {@code css} finds, or null when there is none (or it is
     * blank, or the page replaced it between finding and reading: the inspector re-renders).
     */
    private static String text(WebDriver b, String css) {
        List<WebElement> found = b.findElements(By.cssSelector(css));
        if (found.isEmpty()) {
            return null;
        }
        try {
            String t = found.get(0).getText();
            return t == null || t.isBlank() ? null : t;
        } catch (org.openqa.selenium.StaleElementReferenceException replaced) {
            return null; // the waits that call this look again
        }
    }

    private static void shot(WebDriver browser, String name) throws Exception {
        Files.createDirectories(SHOTS);
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SHOTS.resolve(name + ".png"), png);
        assertEquals((byte) 0x89, png[0], "a screenshot is not a PNG");
        File f = SHOTS.resolve(name + ".png").toFile();
        assertTrue(f.length() > 1000, "screenshot " + f + " is empty");
    }
}
