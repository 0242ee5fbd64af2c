package dev.idempotency.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.TestHttp;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The demo page in a real browser (headless Chromium): its buttons against the running app and its own Redis. Every
 * wait is a bounded {@link WebDriverWait} on what the page shows; what the page claims is checked on the server too.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ShopPageBrowserTests {

    private static WebDriver browser;

    @LocalServerPort
    int port;

    private WebDriverWait wait;
    private TestHttp http;

    @BeforeAll
    static void startBrowser() {
        browser = Chromium.start();
    }

    @AfterAll
    static void quitBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @BeforeEach
    void openPage() {
        http = new TestHttp(port);
        wait = new WebDriverWait(browser, Chromium.TIMEOUT);
        browser.get("http://localhost:" + port + "/");
        // The page has loaded its script once it shows the stock of the default SKU.
        wait.until(page -> !text("available").equals("–") && !text("available").isEmpty());
    }

    @Test
    void doubleClickSavesOnceAndShowsA409ForTheSecondClick() {
        browser.findElement(By.id("double-click")).click();
        List<WebElement> entries = wait.until(page -> entries("feedback-log", 2));
        assertThat(entries.get(0).getDomAttribute("data-status")).isEqualTo("201");
        assertThat(entries.get(0).getText()).contains("click 1: saved as fb-");
        assertThat(entries.get(1).getDomAttribute("data-status")).isEqualTo("409");
        assertThat(entries.get(1).getText()).contains("click 2: Token already used");
        assertThat(text("token")).doesNotContain("none yet").isNotBlank();
    }

    @Test
    void twentyIdenticalOrdersCreateOneOrder() {
        String item = "Storm " + UUID.randomUUID();
        type("item", item);
        browser.findElement(By.id("storm")).click();
        wait.until(page -> count("n-created") + count("n-replayed") + count("n-conflict") + count("n-other") == 20);
        assertThat(count("n-created")).isEqualTo(1);
        assertThat(count("n-other")).isZero();
        assertThat(text("storm-key")).startsWith("Idempotency-Key: ");
        // The table is refreshed after the tally: the new order shows up there exactly once.
        wait.until(page -> text("orders").contains(item));
        assertThat(browser.findElements(By.xpath("//tbody[@id='orders']/tr/td[text()='" + item + "']")))
                .hasSize(1);
        String orders = http.get("/api/orders").body();
        assertThat(orders.split("\"item\":\"" + item + "\"", -1)).as(orders).hasSize(2);
    }

    @Test
    void burstOfReservationsOnOneSkuNeverOversells() {
        String sku = "mug-" + UUID.randomUUID();
        type("sku", sku);
        browser.findElement(By.id("sku")).sendKeys(Keys.TAB); // the change event shows the new SKU's stock
        wait.until(page -> text("available").equals("100"));
        type("reserve-qty", "30");
        browser.findElement(By.id("reserve-burst")).click();
        List<WebElement> entries = wait.until(page -> entries("reserve-log", 5));
        long reserved = entries.stream()
                .filter(entry -> "200".equals(entry.getDomAttribute("data-status")))
                .count();
        assertThat(entries).allSatisfy(entry -> {
            assertThat(entry.getDomAttribute("data-status")).isIn("200", "409");
            if ("409".equals(entry.getDomAttribute("data-status"))) {
                assertThat(entry.getText()).containsAnyOf("Resource busy", "Out of stock");
            }
        });
        // Three reservations of 30 fit in 100; at least one of five always gets the lock.
        assertThat(reserved).isBetween(1L, 3L);
        String left = Long.toString(100 - 30 * reserved);
        wait.until(page -> text("available").equals(left));
        assertThat(http.get("/api/inventory/" + sku).body()).contains("\"available\":" + left + "}");
    }

    private String text(String id) {
        return browser.findElement(By.id(id)).getText().trim();
    }

    private int count(String id) {
        return Integer.parseInt(text(id));
    }

    private void type(String id, String value) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(value);
    }

    /** The entries of a log list once it has exactly {@code size} of them, else {@code null} to keep waiting. */
    private List<WebElement> entries(String list, int size) {
        List<WebElement> entries = browser.findElements(By.cssSelector("#" + list + " li"));
        return entries.size() == size ? entries : null;
    }
}
