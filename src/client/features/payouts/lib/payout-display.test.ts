import { describe, expect, it } from 'vitest';
import {
  payoutDateLabel,
  payoutMethodLabel,
  payoutStageLabel,
  payoutStatusLabel,
} from './payout-display.ts';

describe('payout status badge (docs/product.md#states)', () => {
  it('shows PROCESSING for pending, COMPLETED for completed and FAILED for anything else', () => {
    expect(payoutStatusLabel('pending')).toBe('PROCESSING');
    expect(payoutStatusLabel('completed')).toBe('COMPLETED');
    expect(payoutStatusLabel('failed')).toBe('FAILED');
    expect(payoutStatusLabel('cancelled')).toBe('FAILED');
    expect(payoutStatusLabel('')).toBe('FAILED');
  });
});

describe('payout dates (docs/product.md#screens)', () => {
  it('shows N/A for a date that is not a string, or not a date', () => {
    expect(payoutDateLabel(null)).toBe('N/A');
    expect(payoutDateLabel(undefined)).toBe('N/A');
    expect(payoutDateLabel(1_710_417_600_000)).toBe('N/A');
    expect(payoutDateLabel('yesterday-ish')).toBe('N/A');
  });

  it('formats a date sent as text', () => {
    expect(payoutDateLabel('2025-03-14T12:00:00.000Z')).toMatch(/^Mar 14, 2025/);
  });
});

describe('payout methods', () => {
  it('names each method in words', () => {
    expect(payoutMethodLabel('crypto')).toBe('Crypto');
    expect(payoutMethodLabel('paypal')).toBe('PayPal');
    expect(payoutMethodLabel('bank_transfer')).toBe('Bank Transfer');
  });
});

describe('payout stage (docs/payouts.md#stages-the-player-sees)', () => {
  it('reads a hold by a risk signal as a review by our team, never naming the signal', () => {
    expect(payoutStageLabel({ stage: 'review', stageReason: 'a review by our team' })).toBe(
      'Waiting for a review by our team',
    );
  });

  it('gives every reason when the team review is one of several', () => {
    expect(
      payoutStageLabel({
        stage: 'review',
        stageReason: 'ID not yet approved; a review by our team',
      }),
    ).toBe('Waiting for review: ID not yet approved; a review by our team');
  });
});
