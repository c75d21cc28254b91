import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.Cache;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * OkHttp, the HTTP client of most Android apps (Debian's libokhttp-java), revalidating tabconfig's tab bars: the
 * default tab bar comes gzip-compressed (OkHttp asks for gzip by itself and decodes it), a 304 read by hand ends at
 * once with no body, and OkHttp's own cache revalidates each use ("no-cache") with a 304 and keeps its pooled
 * connection. Run by scripts/test.sh:
 *
 *   java -cp /usr/share/java/okhttp.jar:/usr/share/java/okio.jar Tests/Clients/OkHttpRevalidation.java BASE_URL
 */
public class OkHttpRevalidation {
    private static final List<String> failures = new ArrayList<>();
    private static int passed = 0;

    private static void check(boolean condition, String what) {
        if (condition) {
            passed++;
        } else {
            failures.add(what);
            System.out.println("FAILED: " + what);
        }
    }

    public static void main(String[] args) throws Exception {
        String base = args[0];
        String[] paths = {"/v1/clients/ios-phone/tabs?locale=en", "/v1/clients/ios-phone/users/okhttp-user/tabs?locale=en"};
        for (String path : paths) {
            String url = base + path;
            OkHttpClient plain = new OkHttpClient.Builder().readTimeout(5, TimeUnit.SECONDS).build();
            String etag;
            String identity;
            try (Response plainBytes = plain.newCall(new Request.Builder().url(url).header("Accept-Encoding", "identity").build()).execute()) {
                identity = plainBytes.body().string();
                check(plainBytes.header("Content-Encoding") == null, path + ": Accept-Encoding: identity gets identity");
            }
            try (Response first = plain.newCall(new Request.Builder().url(url).build()).execute()) {
                etag = first.header("ETag");
                String wire = first.networkResponse().header("Content-Encoding");
                check(first.code() == 200 && first.body().string().equals(identity),
                    path + ": first GET is a 200 whose body OkHttp decodes to the identity bytes");
                // OkHttp asks for gzip by itself; the default tab bar is prepared in it, a user's is merged per request.
                boolean prepared = !path.contains("/users/");
                check(prepared ? "gzip".equals(wire) && etag.endsWith(";gzip\"") : wire == null,
                    path + ": sent " + (prepared ? "gzip, with the gzip form's tag" : "as it is") + " (" + wire + ", " + etag + ")");
            }
            for (int i = 0; i < 3; i++) {
                try (Response again = plain.newCall(new Request.Builder().url(url).header("If-None-Match", etag).build()).execute()) {
                    check(again.code() == 304, path + ": If-None-Match answers 304");
                    check(again.body().string().isEmpty(), path + ": the 304's body reads as empty, at once");
                }
            }
            check(plain.connectionPool().connectionCount() == 1, path + ": one kept-alive connection served all four");

            File cacheDirectory = Files.createTempDirectory("okhttp-cache").toFile();
            OkHttpClient cached = new OkHttpClient.Builder()
                .cache(new Cache(cacheDirectory, 1 << 20)).readTimeout(5, TimeUnit.SECONDS).build();
            String body = null;
            for (int i = 0; i < 4; i++) {
                try (Response response = cached.newCall(new Request.Builder().url(url).build()).execute()) {
                    String text = response.body().string();
                    int network = response.networkResponse() == null ? 0 : response.networkResponse().code();
                    if (i == 0) {
                        body = text;
                        check(network == 200, path + ": OkHttp's cache fetches the tab bar");
                    } else {
                        check(network == 304, path + ": OkHttp's cache revalidates each use with a 304 (no-cache)");
                        check(text.equals(body), path + ": and answers the cached body");
                    }
                }
            }
            check(cached.connectionPool().connectionCount() == 1, path + ": and keeps its pooled connection");
        }
        System.out.println("OkHttp revalidation: " + passed + " passed, " + failures.size() + " failed");
        System.exit(failures.isEmpty() ? 0 : 1);
    }
}
