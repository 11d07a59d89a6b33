package billing.topups;

import io.toa4j.api.Entry;

/** A top-up paid at the payment provider. */
public class Topup extends Entry {
  public String checkout;
  public String customer;
  public Long amount;
  public String currency;
}
