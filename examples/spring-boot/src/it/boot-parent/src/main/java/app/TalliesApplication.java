package app;

import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.spring.IdempotencyKeyRequired;
import io.toa4j.spring.IdempotentCall;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** One route: add to a tally, once per Idempotency-Key. */
@SpringBootApplication
public class TalliesApplication {
  public static void main(String[] args) {
    SpringApplication.run(TalliesApplication.class, args);
  }

  @RestController
  static class Tallies {
    record Add(long amount) {}

    @PostMapping("/tallies/{id}/adds")
    Object add(@PathVariable String id, @RequestBody Add add, @IdempotencyKeyRequired IdempotentCall call) {
      Reply reply = call.call("counters.tallies.add", Request.of(Query.id(id), Map.of("amount", add.amount())));
      return ((Reply.Output) reply).value().orElseThrow();
    }
  }
}
