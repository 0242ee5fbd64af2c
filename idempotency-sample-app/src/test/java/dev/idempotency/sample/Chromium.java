package dev.idempotency.sample;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium for the page tests: Debian's {@code chromium} and {@code chromium-driver} packages when both are
 * installed (or {@code -Dchromium.binary} and {@code -Dchromedriver.path} name them), which never downloads anything;
 * otherwise Selenium Manager, which finds a Chrome on the machine or, with internet access, downloads Chrome for
 * Testing and its driver into {@code ~/.cache/selenium}. The line {@code [browser] ...} says which one ran.
 */
final class Chromium {

    /** How long a page may take to load or a script to run; every wait in the tests is bounded too. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final Path BINARY = Path.of(System.getProperty("chromium.binary", "/usr/bin/chromium"));
    private static final Path DRIVER = Path.of(System.getProperty("chromedriver.path", "/usr/bin/chromedriver"));

    private Chromium() {}

    /** Starts a browser; chromedriver's log goes to {@code target/chromedriver.log}. */
    static WebDriver start() {
        ChromeOptions options = new ChromeOptions()
                // The sandbox needs privileges a CI container (running as root) does not grant; /dev/shm is small
                // there.
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1200");
        ChromeDriverService.Builder service =
                new ChromeDriverService.Builder().usingAnyFreePort().withLogFile(new File("target/chromedriver.log"));
        if (Files.isExecutable(BINARY) && Files.isExecutable(DRIVER)) {
            options.setBinary(BINARY.toFile());
            service.usingDriverExecutable(DRIVER.toFile());
            System.out.println("[browser] Chromium " + BINARY + " with " + DRIVER);
        } else if (System.getProperty("chromium.binary") != null || System.getProperty("chromedriver.path") != null) {
            throw new IllegalStateException(BINARY + " or " + DRIVER + " is missing or not executable, although "
                    + "-Dchromium.binary or -Dchromedriver.path names it");
        } else {
            System.out.println("[browser] no " + BINARY + " and " + DRIVER + ": Selenium Manager chooses a browser");
        }
        ChromeDriver driver = new ChromeDriver(service.build(), options);
        driver.manage().timeouts().pageLoadTimeout(TIMEOUT).scriptTimeout(TIMEOUT);
        return driver;
    }
}
