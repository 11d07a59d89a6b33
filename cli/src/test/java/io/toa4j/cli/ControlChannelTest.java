package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Refusal;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The channel over a real loopback socket with a real client. The application behind it is a
 * lambda: booting a context is the end-to-end tests' business, here only the channel is tested.
 */
class ControlChannelTest {
  private static final String TOKEN = "0123456789abcdef";
  private final List<Wire.Call> received = new CopyOnWriteArrayList<>();
  private ControlChannel channel;
  @TempDir Path context;

  @AfterEach
  void close() {
    if (channel != null) channel.close();
  }

  @Test
  void call_answeredWithOutput_reachesTheClientAsOutput() throws Exception {
    start((endpoint, request, identity) -> new Reply.Output(Optional.of(Map.of("balance", 5000L))));

    Reply reply =
        client(TOKEN)
            .call(new Wire.Call("billing.wallets.observe", Request.empty(), Optional.of("id-1")));

    assertThat(reply).isEqualTo(new Reply.Output(Optional.of(Map.of("balance", 5000L))));
    assertThat(received)
        .containsExactly(
            new Wire.Call("billing.wallets.observe", Request.empty(), Optional.of("id-1")));
  }

  @Test
  void call_withoutIdentity_reachesTheCallerWithoutIdentity() throws Exception {
    start((endpoint, request, identity) -> new Reply.Output(Optional.empty()));

    Reply reply = client(TOKEN).call(new Wire.Call("a.b.c", Request.empty(), Optional.empty()));

    assertThat(reply).isEqualTo(new Reply.Output(Optional.empty()));
    assertThat(received.get(0).identity()).isEmpty();
  }

  @Test
  void call_refused_reachesTheClientAsRefusal() throws Exception {
    start(
        (endpoint, request, identity) ->
            new Reply.Refused(Refusal.of("INSUFFICIENT_FUNDS", Map.of("balance", 1L))));

    Reply reply =
        client(TOKEN)
            .call(new Wire.Call("billing.wallets.debit", Request.empty(), Optional.empty()));

    assertThat(reply)
        .isEqualTo(new Reply.Refused(Refusal.of("INSUFFICIENT_FUNDS", Map.of("balance", 1L))));
  }

  @Test
  void call_failing_isThrownAtTheClientWithItsCode() throws Exception {
    start(
        (endpoint, request, identity) -> {
          throw new Failure(Failure.Code.ENDPOINT, "no component 'x.y'");
        });

    assertThatThrownBy(
            () -> client(TOKEN).call(new Wire.Call("x.y.z", Request.empty(), Optional.empty())))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ENDPOINT))
        .hasMessage("no component 'x.y'");
  }

  @Test
  void call_throwingSomethingElse_isASystemFailure() throws Exception {
    start(
        (endpoint, request, identity) -> {
          throw new IllegalStateException("storage closed");
        });

    assertThatThrownBy(
            () -> client(TOKEN).call(new Wire.Call("x.y.z", Request.empty(), Optional.empty())))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.SYSTEM))
        .hasMessageContaining("storage closed");
  }

  @Test
  void call_withWrongToken_isForbiddenAndNeverReachesTheCaller() throws Exception {
    start((endpoint, request, identity) -> new Reply.Output(Optional.empty()));

    assertThat(post("wrong", "{\"endpoint\":\"a.b.c\"}").statusCode()).isEqualTo(403);
    assertThatThrownBy(
            () -> client("wrong").call(new Wire.Call("a.b.c", Request.empty(), Optional.empty())))
        .isInstanceOfSatisfying(
            CliProblem.class, p -> assertThat(p.exitCode()).isEqualTo(Toa.FAILED))
        .hasMessageContaining("refused the token");
    assertThat(received).isEmpty();
  }

  @Test
  void call_withMalformedBody_isBadRequestNamingTheProblem() throws Exception {
    start((endpoint, request, identity) -> new Reply.Output(Optional.empty()));

    HttpResponse<String> response =
        post(TOKEN, "{\"endpoint\":\"a.b.c\",\"request\":{\"inptu\":1}}");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("CONTRACT").contains("request.inptu");
    assertThat(post(TOKEN, "not json").statusCode()).isEqualTo(400);
    assertThat(received).isEmpty();
  }

  @Test
  void call_withAnotherMethod_isNotAllowed() throws Exception {
    start((endpoint, request, identity) -> new Reply.Output(Optional.empty()));

    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(uri()).header(Wire.TOKEN_HEADER, TOKEN).GET().build(),
                HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(405);
  }

  @Test
  void call_toAClosedChannel_isUnreachableSoItMayRunElsewhere() throws Exception {
    start((endpoint, request, identity) -> new Reply.Output(Optional.empty()));
    ChannelClient client = client(TOKEN);
    channel.close();
    channel = null;

    assertThatThrownBy(() -> client.call(new Wire.Call("a.b.c", Request.empty(), Optional.empty())))
        .isInstanceOf(ChannelClient.Unreachable.class);
  }

  private void start(Caller behind) throws Exception {
    channel =
        ControlChannel.start(
            (endpoint, request, identity) -> {
              received.add(new Wire.Call(endpoint, request, identity));
              return behind.call(endpoint, request, identity);
            },
            TOKEN,
            context,
            waits::countDown);
  }

  private final CountDownLatch waits = new CountDownLatch(1);

  @Test
  void call_whoseIdentityIsBeingAnswered_waitsForThatAnswer_beforeItReachesTheCaller()
      throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch open = new CountDownLatch(1);
    start(
        (endpoint, request, identity) -> {
          entered.countDown();
          try {
            if (!open.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("never opened");
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
          return new Reply.Output(Optional.of((long) received.size()));
        });
    Wire.Call call = new Wire.Call("test.slow.add", Request.empty(), Optional.of("retried"));

    CompletableFuture<Reply> first = CompletableFuture.supplyAsync(() -> call(call));
    assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Reply> retry = CompletableFuture.supplyAsync(() -> call(call));
    assertThat(waits.await(30, TimeUnit.SECONDS)).as("the retry waits for the first").isTrue();
    assertThat(received).as("only the first reached the caller").hasSize(1);
    open.countDown();

    assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(new Reply.Output(Optional.of(1L)));
    assertThat(retry.get(30, TimeUnit.SECONDS))
        .as("reached the caller after the first answered")
        .isEqualTo(new Reply.Output(Optional.of(2L)));
  }

  private Reply call(Wire.Call call) {
    try {
      return client(TOKEN).call(call);
    } catch (ChannelClient.Unreachable e) {
      throw new IllegalStateException(e);
    }
  }

  private ChannelClient client(String token) {
    return new ChannelClient(new RunFile(ProcessHandle.current().pid(), channel.port(), token));
  }

  private URI uri() {
    return URI.create("http://127.0.0.1:" + channel.port() + Wire.PATH);
  }

  private HttpResponse<String> post(String token, String body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(uri())
                .header(Wire.TOKEN_HEADER, token)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
