package example;

import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import io.toa4j.spring.IdempotencyKeyRequired;
import io.toa4j.spring.IdempotentCall;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The billing routes. {@code POST /topups} records a payment the provider reported (its checkout,
 * the customer, the amount in cents); the wallet is credited when {@code billing.wallets} receives
 * the {@code paid} event. The route requires an {@code Idempotency-Key}: a client that retries
 * after a timeout gets the first answer, and the top-up is recorded, and the wallet credited, once.
 * {@code GET /wallets/{id}} answers a customer's wallet.
 */
@RestController
class Billing {
  private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");
  private final Toa toa;

  Billing(Toa toa) {
    this.toa = toa;
  }

  /** The body of {@code POST /topups}. */
  record Topup(String checkout, String customer, Long amount) {}

  @PostMapping("/topups")
  Map<String, Object> record(
      @RequestBody Topup topup, @IdempotencyKeyRequired IdempotentCall call) {
    if (topup.checkout() == null || topup.checkout().isBlank())
      throw badRequest("checkout is required: the provider's id of the checkout");
    if (topup.customer() == null || !ID.matcher(topup.customer()).matches()) {
      throw badRequest(
          "customer must be 32 lowercase hexadecimal characters, the id of the customer's wallet; got "
              + topup.customer());
    }
    if (topup.amount() == null || topup.amount() < 1)
      throw badRequest("amount must be a whole number of cents, 1 or more; got " + topup.amount());
    Map<String, Object> input =
        Map.of(
            "checkout",
            topup.checkout(),
            "customer",
            topup.customer(),
            "amount",
            topup.amount(),
            "currency",
            "USD");
    Reply reply =
        call.call("billing.topups.record", Request.of(Query.id(idOf(topup.checkout())), input));
    return shown(output(reply), "id", "checkout", "customer", "amount");
  }

  @GetMapping("/wallets/{id}")
  Map<String, Object> wallet(@PathVariable String id) {
    return shown(output(toa.call("billing.wallets.observe", Request.id(id))), "id", "balance");
  }

  /**
   * A top-up's id: its checkout's, hashed to the 32 hexadecimal characters of a record id, so every
   * report of one checkout reaches one record.
   */
  static String idOf(String checkout) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(checkout.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  /** Only these properties of a record, in this order. */
  private static Map<String, Object> shown(Map<String, Object> record, String... keys) {
    Map<String, Object> shown = new LinkedHashMap<>();
    for (String key : keys) shown.put(key, record.get(key));
    return shown;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> output(Reply reply) {
    if (reply instanceof Reply.Refused refused) {
      throw new ResponseStatusException(
          HttpStatus.UNPROCESSABLE_CONTENT, "refused: " + refused.refusal().code());
    }
    return (Map<String, Object>) ((Reply.Output) reply).value().orElseThrow();
  }

  private static ResponseStatusException badRequest(String detail) {
    return new ResponseStatusException(HttpStatus.BAD_REQUEST, detail);
  }
}
