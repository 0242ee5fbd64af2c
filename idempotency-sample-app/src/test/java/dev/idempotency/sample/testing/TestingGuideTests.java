package dev.idempotency.sample.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/guide/testing.md shows the code of the tests in this package: each {@code <!-- include: path#tag -->} is followed
 * by a code block that is exactly the region between {@code // tag::tag[]} and {@code // end::tag[]} of that file.
 */
class TestingGuideTests {

    private static final Path ROOT = Path.of("..");
    private static final Pattern INCLUDE =
            Pattern.compile("<!-- include: (\\S+)#(\\S+) -->\\n```java\\n(.*?)```\\n", Pattern.DOTALL);

    @Test
    void theGuideShowsTheCodeTheBuildRuns() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/guide/testing.md"));
        Matcher include = INCLUDE.matcher(page);
        int checked = 0;
        while (include.find()) {
            String source = Files.readString(ROOT.resolve(include.group(1)));
            String tag = include.group(2);
            Matcher region = Pattern.compile(
                            "// tag::" + Pattern.quote(tag) + "\\[\\]\\n(.*?)// end::" + Pattern.quote(tag)
                                    + "\\[\\]\\n",
                            Pattern.DOTALL)
                    .matcher(source);
            assertThat(region.find())
                    .as("%s has a region %s", include.group(1), tag)
                    .isTrue();
            assertThat(include.group(3))
                    .as("the code shown for %s#%s", include.group(1), tag)
                    .isEqualTo(region.group(1));
            checked++;
        }
        assertThat(checked).as("included examples").isEqualTo(5);
    }
}
