import type { AdminPayoutView, PayoutView } from '#shared/contracts/payouts.ts';

/** A pending crypto payout of $15 by the default test user (1). */
export function makePayout(overrides: Partial<PayoutView> = {}): PayoutView {
  return {
    id: 5,
    userId: 1,
    amount: 15,
    status: 'pending',
    paymentMethod: 'crypto',
    paymentDetails: 'BTC bc1qexampleaddress',
    phoneNumber: '+1 555 123 4567',
    createdAt: '2025-03-14T12:00:00.000Z',
    completedAt: null,
    failureReason: null,
    stage: 'review',
    stageReason: 'details to check by hand',
    currency: null,
    address: null,
    extraId: null,
    coinAmount: null,
    coinRate: null,
    txHash: null,
    explorerUrl: null,
    sentAt: null,
    ...overrides,
  };
}

export function makeAdminPayout(overrides: Partial<AdminPayoutView> = {}): AdminPayoutView {
  return {
    ...makePayout(),
    username: 'ace_player',
    decidedBy: null,
    decidedAt: null,
    ...overrides,
  };
}
