/**
 * A crypto withdrawal as the payout provider records it (NOWPayments, or the sandbox's), in the
 * sender's terms: `unverified` was created but waits for its 2FA code, `processing` is on its way
 * (with the chain's hash once it has one), `finished` and `failed` are the ends.
 */
export type WithdrawalState = 'unverified' | 'processing' | 'finished' | 'failed';

export interface Withdrawal {
  id: string;
  batchId: string;
  state: WithdrawalState;
  /** The provider's own word for it (`WAITING`, `SENDING`, …), kept for the logs. */
  providerStatus: string;
  currency: string;
  /** The coin amount, as the provider's decimal text. */
  amount: string;
  hash: string | null;
  /** Why it failed, when the provider says. */
  error: string | null;
  externalId: string | null;
}

export interface PayoutDestination {
  currency: string;
  address: string;
  extraId: string | null;
}

export interface CoinEstimate {
  /** The coin amount for the dollars, as decimal text. */
  coinAmount: string;
  /** Coins per dollar, as decimal text. */
  rate: string;
}

export interface CoinBalance {
  currency: string;
  amount: string;
  pending: string;
}

export interface PayoutProvider {
  readonly name: 'nowpayments' | 'sandbox';
  /** Whether the provider accepts the address for the coin; throws when it cannot be asked. */
  validateAddress(destination: PayoutDestination): Promise<boolean>;
  estimate(amountCents: bigint, currency: string): Promise<CoinEstimate>;
  balances(): Promise<CoinBalance[]>;
  /**
   * The withdrawal made with this external id since `since`, if any: how a sender that lost the
   * answer to its creation (a crash, a timeout) finds the first attempt instead of paying twice.
   */
  findWithdrawal(externalId: string, since: Date): Promise<Withdrawal | null>;
  getWithdrawal(ref: { id: string; batchId: string }): Promise<Withdrawal>;
  createWithdrawal(input: {
    destination: PayoutDestination;
    coinAmount: string;
    externalId: string;
  }): Promise<Withdrawal>;
  /** Confirms a created withdrawal's batch with a fresh 2FA code. */
  verify(batchId: string): Promise<void>;
}
