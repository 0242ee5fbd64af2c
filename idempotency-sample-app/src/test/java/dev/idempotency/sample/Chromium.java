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
 * Headless Chromium for the page tests, from Debian's {@code chromium} and {@code chromium-driver} packages. Both
 * binaries are given explicitly, so Selenium never tries to download a browser or a driver; when either is missing
 * the test fails with what to install.
 */
final class Chromium {

    /** How long a page may take to load or a script to run; every wait in the tests is bounded too. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final Path BINARY = Path.of(System.getProperty("chromium.binary", "/usr/bin/chromium"));
    private static final Path DRIVER = Path.of(System.getProperty("chromedriver.path", "/usr/bin/chromedriver"));

    private Chromium() {}

    /** Starts a browser; chromedriver's log goes to {@code target/chromedriver.log}. */
    static WebDriver start() {
        requireExecutable(BINARY, "-Dchromium.binary");
        requireExecutable(DRIVER, "-Dchromedriver.path");
        ChromeOptions options = new ChromeOptions()
                .setBinary(BINARY.toFile())
                // The sandbox needs privileges a CI container (running as root) does not grant; /dev/shm is small
                // there.
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1200");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(new File("target/chromedriver.log"))
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(TIMEOUT).scriptTimeout(TIMEOUT);
        return driver;
    }

    private static void requireExecutable(Path path, String property) {
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(path + " is missing: the browser tests need Debian's chromium and "
                    + "chromium-driver (apt-get install -y chromium chromium-driver), or " + property
                    + " naming where it is");
        }
    }
}
