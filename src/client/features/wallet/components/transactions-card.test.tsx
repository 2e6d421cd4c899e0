import { describe, expect, it } from 'vitest';
import { transactionKindLabel } from './transactions-card.tsx';

describe('a transaction’s label', () => {
  it('names a tournament’s entry fee, refund and prize as the tournament’s, not a challenge’s', () => {
    const tournament = { type: 'tournament', id: '4' };
    expect(transactionKindLabel('stake', tournament)).toBe('Tournament entry');
    expect(transactionKindLabel('refund', tournament)).toBe('Tournament entry refunded');
    expect(transactionKindLabel('prize', tournament)).toBe('Tournament prize');
    expect(transactionKindLabel('stake', { type: 'challenge', id: '9' })).toBe('Challenge stake');
    expect(transactionKindLabel('refund', { type: 'challenge', id: '9' })).toBe('Refund');
    expect(transactionKindLabel('deposit', tournament)).toBe('Deposit');
    expect(transactionKindLabel('stake')).toBe('Challenge stake');
    expect(transactionKindLabel('card_refund_hold')).toBe('Card refund requested');
    // A kind this client does not know yet is shown tidied up.
    expect(transactionKindLabel('loyalty_bonus')).toBe('Loyalty bonus');
  });
});
