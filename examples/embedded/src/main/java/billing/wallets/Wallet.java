package billing.wallets;

import io.toa4j.api.Entry;
import java.util.LinkedHashMap;
import java.util.Map;

/** A customer's wallet: its balance, and the debits it has paid by reference. */
public class Wallet extends Entry {
  public long balance;
  public Map<String, Long> paid = new LinkedHashMap<>();
}
