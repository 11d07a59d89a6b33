package billing.wallets;

import io.toa4j.api.Entry;
import java.util.LinkedHashMap;
import java.util.Map;

/** A customer's wallet. */
public class Wallet extends Entry {
  public long balance;
  /** What each debit took, by what it was for. */
  public Map<String, Long> paid = new LinkedHashMap<>();
}
