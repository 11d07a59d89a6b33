package io.toa4j.spring.app;

import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import io.toa4j.spring.IdempotencyKeyRequired;
import io.toa4j.spring.IdempotentCall;
import java.util.Map;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The starter's test application: the wallet component compiled with it, credited through two
 * routes, one requiring an {@code Idempotency-Key} and one leaving it optional.
 */
@SpringBootApplication
public class WalletsApplication {

  /** The routes: credit a wallet, read it. */
  @RestController
  static class Wallets {
    private final Toa toa;

    Wallets(Toa toa) {
      this.toa = toa;
    }

    record Credit(long amount) {}

    @PutMapping("/wallets/{id}/credits")
    ResponseEntity<Object> credit(
        @PathVariable String id,
        @RequestBody Credit credit,
        @IdempotencyKeyRequired IdempotentCall call) {
      return answer(
          call.call(
              "test.wallets.credit", Request.of(Query.id(id), Map.of("amount", credit.amount()))));
    }

    @PostMapping("/wallets/{id}/deposits")
    ResponseEntity<Object> deposit(
        @PathVariable String id, @RequestBody Credit credit, IdempotentCall call) {
      return answer(
          call.call(
              "test.wallets.credit", Request.of(Query.id(id), Map.of("amount", credit.amount()))));
    }

    @GetMapping("/wallets/{id}")
    ResponseEntity<Object> wallet(@PathVariable String id) {
      return answer(toa.call("test.wallets.observe", Request.id(id)));
    }

    private static ResponseEntity<Object> answer(Reply reply) {
      if (reply instanceof Reply.Output output)
        return ResponseEntity.ok(output.value().orElse(Map.of()));
      return ResponseEntity.unprocessableContent()
          .body(Map.of("code", ((Reply.Refused) reply).refusal().code()));
    }
  }
}
