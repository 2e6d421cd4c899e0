import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_MESSAGES } from '#shared/contracts/payouts.ts';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { CHALLENGE_BODY, PAYOUT_BODY } from '../../security/testing/world.ts';
import { cardMoneyMessage } from './card-money.ts';

/**
 * The app's clock runs with the real one, `aheadMs` later: the tests move hours forward, within a
 * session's idle time, so the card deposits here clear after two hours.
 */
let aheadMs = 0;
let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp({
    env: { CARD_CLEARING_HOURS: '2' },
    clock: () => new Date(Date.now() + aheadMs),
  });
  ({ agent: admin } = await signInAdmin(t));
});
afterEach(async () => {
  aheadMs = 0;
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const HOUR_MS = 3_600_000;

async function depositByCard(agent: Agent, amount: string): Promise<void> {
  const intent = await agent.post('/api/create-payment-intent', { amount });
  expect(intent.statusCode).toBe(200);
  const paid = await agent.post('/api/sandbox/card/confirm', {
    clientSecret: intent.json<{ clientSecret: string }>().clientSecret,
    cardNumber: SANDBOX_TEST_CARDS.success,
  });
  expect(paid.statusCode).toBe(200);
}

async function limitsOf(agent: Agent) {
  const response = await agent.get('/api/payouts/limits');
  expect(response.statusCode).toBe(200);
  return response.json<{
    available: number;
    withdrawable: number;
    refundableToCard: number;
    cardClearingHours: number;
  }>();
}

async function credit(userId: number, amount: string): Promise<void> {
  const response = await admin.post(`/api/admin/users/${userId}/balance`, { amount });
  expect(response.statusCode).toBe(200);
}

describe('card money and payouts', () => {
  it('keeps a fresh card deposit from leaving as a payout, with the amount in the refusal', async () => {
    const { agent } = await signUp(t.app);
    await depositByCard(agent, '50');
    expect(await limitsOf(agent)).toEqual({
      available: 50,
      withdrawable: 0,
      refundableToCard: 50,
      cardClearingHours: 2,
    });
    const refused = await agent.post('/api/payouts', { ...PAYOUT_BODY, amount: 10 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'CARD_MONEY',
      message: '$50.00 of your balance came by card and can only be refunded to that card for now.',
    });
    expect(cardMoneyMessage(5000n)).toBe(refused.json<{ message: string }>().message);
    // More than the wallet holds is the SPEC's refusal, whatever the money's origin.
    const over = await agent.post('/api/payouts', { ...PAYOUT_BODY, amount: 60 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ message: PAYOUT_MESSAGES.insufficientBalance });
  });

  it('lets an admin’s credit leave beside card money that has not cleared', async () => {
    const { agent, user } = await signUp(t.app);
    await depositByCard(agent, '50');
    await credit(user.id, '20');
    expect(await limitsOf(agent)).toMatchObject({ withdrawable: 20, refundableToCard: 50 });
    const paid = await agent.post('/api/payouts', { ...PAYOUT_BODY, amount: 20 });
    expect(paid.statusCode).toBe(201);
    expect(await limitsOf(agent)).toMatchObject({ available: 50, withdrawable: 0 });
  });

  it('clears card money once it is both played through and CARD_CLEARING_HOURS old', async () => {
    const { agent, user } = await signUp(t.app);
    await depositByCard(agent, '50');
    await credit(user.id, '100');
    expect(await limitsOf(agent)).toMatchObject({ withdrawable: 100, refundableToCard: 50 });

    // Played through, but young: still the card's.
    const staked = await agent.post('/api/challenges', { ...CHALLENGE_BODY, amount: 50 });
    expect(staked.statusCode).toBe(201);
    expect(await limitsOf(agent)).toMatchObject({
      available: 100,
      withdrawable: 50,
      refundableToCard: 50,
    });

    aheadMs = 3 * HOUR_MS;
    expect(await limitsOf(agent)).toMatchObject({ withdrawable: 100, refundableToCard: 0 });
  });

  it('keeps card money the card’s when it is old but was never played', async () => {
    const { agent, user } = await signUp(t.app);
    await depositByCard(agent, '40');
    await credit(user.id, '10');
    aheadMs = 5 * HOUR_MS;
    expect(await limitsOf(agent)).toMatchObject({ withdrawable: 10, refundableToCard: 40 });
  });
});
