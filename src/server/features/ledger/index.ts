/**
 * The ledger: every movement of money, the balances, the invariants, and the only code that
 * reads or writes the ledger's tables (docs/money-and-ledger.md).
 */
export {
  EXTERNAL_CARD,
  EXTERNAL_CRYPTO,
  HOUSE_ADJUSTMENTS,
  HOUSE_FEES,
  HOUSE_UNCLAIMED,
  cardRefundHold,
  challengeEscrow,
  challengeReview,
  payoutHold,
  playerReceivable,
  tournamentEscrow,
  userWallet,
} from './accounts.ts';
export { BalanceCache } from './balance-cache.ts';
export {
  ZERO_BALANCES,
  balanceCentsOf,
  getUserBalanceCents,
  getUserBalances,
  totalCents,
  type UserBalances,
} from './balances.ts';
export { debtCentsOf, lockWalletAndDebt, outstandingDebts } from './debts.ts';
export { checkLedgerInvariants } from './invariants.ts';
export {
  POSTED_COLUMNS,
  createLedger,
  type Entry,
  type Ledger,
  type TransferResult,
} from './ledger.ts';
export {
  escrowBalances,
  findUnreversedSettlement,
  lockWalletBalance,
  postingsOf,
  reviewBalances,
  stakedSince,
  unclaimedHeldFor,
  walletCreditOf,
  type PostedTransfer,
} from './queries.ts';
export { moneyByDay, prizeCredits, transfersQuery } from './reports.ts';
export { walletRoutes } from './routes.ts';
export { toTransactionView } from './transaction-view.ts';
export { listWalletMovements, type WalletMovement } from './transactions.ts';
