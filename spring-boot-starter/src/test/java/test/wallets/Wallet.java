package test.wallets;

import io.toa4j.api.Entry;

/** A wallet: its balance. */
public class Wallet extends Entry {
  public long balance;
}
