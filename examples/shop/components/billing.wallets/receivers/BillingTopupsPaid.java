package billing.wallets.receivers;

import io.toa4j.api.Query;
import io.toa4j.api.Receiver;
import io.toa4j.api.Request;
import java.util.Map;

/** A paid top-up credits its customer's wallet, keyed by the provider's checkout. */
public class BillingTopupsPaid implements Receiver<BillingTopupsPaid.Topup> {
  /** What of the event's payload (the top-up record) this receiver reads. */
  public record Topup(String checkout, String customer, long amount) {}

  @Override
  public Request request(Topup topup) {
    return Request.of(Query.id(topup.customer()), Map.of("amount", topup.amount(), "type", "topup", "ref", topup.checkout()));
  }
}
