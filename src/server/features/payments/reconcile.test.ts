import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import { createAppContext } from '#server/context.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { payments } from '#server/db/schema/payments.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { selectPaymentProviders } from './providers/select-providers.ts';
import type { SandboxCardProvider } from './providers/sandbox-card-provider.ts';
import type { SandboxCryptoProvider } from './providers/sandbox-crypto-provider.ts';
import { CARD_CHECKOUT_MS, RECONCILE_BATCH, reconcileDuePayments } from './reconcile.ts';
import type { PaymentDeps } from './service.ts';
import { balanceOf, depositTransfers, paymentRow } from './testing/assertions.ts';

const MINUTE = 60_000;

let t: TestApp;
let deps: PaymentDeps;
let card: SandboxCardProvider;
let crypto: SandboxCryptoProvider;

beforeAll(async () => {
  t = await createTestApp();
  const providers = selectPaymentProviders(t.env, t.database.db, () => new Date());
  card = providers.card as SandboxCardProvider;
  crypto = providers.crypto as SandboxCryptoProvider;
  // The app's bus, as the server's worker has: the balances the app shows hear its transfers.
  const ctx = createAppContext({ env: t.env, database: t.database, bus: t.bus });
  // The worker only logs; its report and the database say what it did.
  deps = { ctx, providers, log: pino({ level: 'silent' }) };
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
  // Every test starts with nothing pending left over from the one before.
  await t.database.db
    .update(payments)
    .set({ status: 'failed' })
    .where(eq(payments.status, 'pending'));
});
afterAll(async () => {
  await t.close();
});

const later = (ms: number) => new Date(Date.now() + ms);

/** A card deposit the player paid at the provider, whose news never reached us. */
async function paidCardNobodyReported(agent: Agent, userId: number, amount = '25.00') {
  const created = await agent.post('/api/create-payment-intent', { amount });
  expect(created.statusCode).toBe(200);
  const { clientSecret, paymentIntentId } = created.json<{
    clientSecret: string;
    paymentIntentId: string;
  }>();
  await card.confirmCard({ clientSecret, cardNumber: SANDBOX_TEST_CARDS.success, userId });
  return paymentIntentId;
}

async function cryptoDeposit(agent: Agent, amount = 40) {
  return (await agent.post('/api/create-crypto-payment', { amount })).json<{ paymentId: string }>()
    .paymentId;
}

async function nextCheckOf(
  database: DatabaseHandle,
  provider: 'sandbox-card' | 'sandbox-crypto',
  id: string,
) {
  const row = await paymentRow(database, provider, id);
  return { checks: row.checks, nextCheckAt: row.nextCheckAt };
}

describe('payment reconciliation', () => {
  it('credits, once, a paid card deposit nobody reported, and only once it is due', async () => {
    const { agent, user } = await signUp(t.app);
    const intentId = await paidCardNobodyReported(agent, user.id);

    // Made just now: the player's own confirm and the webhook get two minutes first.
    expect(await reconcileDuePayments(deps, new Date())).toEqual({
      checked: 0,
      credited: 0,
      failed: 0,
    });
    expect(await balanceOf(agent)).toBe(0);

    expect(await reconcileDuePayments(deps, later(3 * MINUTE))).toEqual({
      checked: 1,
      credited: 1,
      failed: 0,
    });
    expect(await balanceOf(agent)).toBe(25);
    expect((await paymentRow(t.database, 'sandbox-card', intentId)).status).toBe('credited');

    // Credited payments are never asked about again; the player's late confirm changes nothing.
    expect((await reconcileDuePayments(deps, later(24 * 60 * MINUTE))).checked).toBe(0);
    const confirm = await agent.post('/api/confirm-payment', { paymentIntentId: intentId });
    expect(confirm.statusCode).toBe(200);
    expect(await balanceOf(agent)).toBe(25);
    expect(await depositTransfers(t.database, 'sandbox-card', intentId)).toBe(1);
  });

  it('credits a crypto deposit the provider confirmed while the IPN was lost', async () => {
    const { agent, user } = await signUp(t.app);
    const paymentId = await cryptoDeposit(agent);
    await crypto.simulate(paymentId, user.id, 'finished');
    expect(await reconcileDuePayments(deps, later(3 * MINUTE))).toMatchObject({ credited: 1 });
    expect(await balanceOf(agent)).toBe(40);
    expect(await depositTransfers(t.database, 'sandbox-crypto', paymentId)).toBe(1);
  });

  it('asks again after 4, 8, 16 minutes while the payment is still open, then settles its end', async () => {
    const { agent } = await signUp(t.app);
    const paymentId = await cryptoDeposit(agent);

    let now = later(3 * MINUTE);
    for (const waitMinutes of [4, 8, 16]) {
      expect(await reconcileDuePayments(deps, now)).toMatchObject({ checked: 1, credited: 0 });
      const { nextCheckAt } = await nextCheckOf(t.database, 'sandbox-crypto', paymentId);
      expect(nextCheckAt.getTime() - now.getTime()).toBe(waitMinutes * MINUTE);
      // Not due before its time…
      expect((await reconcileDuePayments(deps, new Date(nextCheckAt.getTime() - 1))).checked).toBe(
        0,
      );
      now = nextCheckAt;
    }
    expect((await paymentRow(t.database, 'sandbox-crypto', paymentId)).checks).toBe(3);
    expect(await balanceOf(agent)).toBe(0);
  });

  it('waits at most an hour between checks and gives up on payments older than a week', async () => {
    const { agent } = await signUp(t.app);
    const paymentId = await cryptoDeposit(agent);
    await t.database.db
      .update(payments)
      .set({ checks: 40 })
      .where(eq(payments.providerPaymentId, paymentId));
    const now = later(3 * MINUTE);
    await reconcileDuePayments(deps, now);
    const { nextCheckAt } = await nextCheckOf(t.database, 'sandbox-crypto', paymentId);
    expect(nextCheckAt.getTime() - now.getTime()).toBe(60 * MINUTE);

    await t.database.db
      .update(payments)
      .set({ createdAt: sql`now() - interval '8 days'`, nextCheckAt: sql`now()` })
      .where(eq(payments.providerPaymentId, paymentId));
    expect((await reconcileDuePayments(deps, later(MINUTE))).checked).toBe(0);
  });

  it('cancels a card payment still unpaid when its checkout ends, so it can never be paid', async () => {
    const { agent, user } = await signUp(t.app);
    const created = (await agent.post('/api/create-payment-intent', { amount: '10.00' })).json<{
      clientSecret: string;
      paymentIntentId: string;
    }>();
    const { createdAt } = await paymentRow(t.database, 'sandbox-card', created.paymentIntentId);
    const since = (ms: number) => new Date(createdAt.getTime() + ms);

    // Checked at 2, 6 and 14 minutes as any payment (a second later: the first check's time
    // comes from the database's clock); the next check is the checkout's end.
    for (const minutes of [2, 6, 14]) {
      expect(await reconcileDuePayments(deps, since(minutes * MINUTE + 1000))).toMatchObject({
        checked: 1,
      });
    }
    const due = await nextCheckOf(t.database, 'sandbox-card', created.paymentIntentId);
    expect(due.nextCheckAt).toEqual(since(CARD_CHECKOUT_MS));
    expect((await paymentRow(t.database, 'sandbox-card', created.paymentIntentId)).status).toBe(
      'pending',
    );

    expect(await reconcileDuePayments(deps, since(CARD_CHECKOUT_MS))).toMatchObject({
      checked: 1,
    });
    expect(await paymentRow(t.database, 'sandbox-card', created.paymentIntentId)).toMatchObject({
      status: 'failed',
      providerStatus: 'canceled',
    });
    await expect(
      card.confirmCard({
        clientSecret: created.clientSecret,
        cardNumber: SANDBOX_TEST_CARDS.success,
        userId: user.id,
      }),
    ).rejects.toMatchObject({ kind: 'declined' });
    expect(await balanceOf(agent)).toBe(0);
  });

  it('credits, rather than cancels, a card payment paid just before its checkout ended', async () => {
    const { agent, user } = await signUp(t.app);
    const intentId = await paidCardNobodyReported(agent, user.id, '15.00');
    const { createdAt } = await paymentRow(t.database, 'sandbox-card', intentId);
    const cancel = vi.spyOn(card, 'cancelIntent');
    expect(
      await reconcileDuePayments(deps, new Date(createdAt.getTime() + CARD_CHECKOUT_MS)),
    ).toMatchObject({ checked: 1, credited: 1 });
    expect(cancel).not.toHaveBeenCalled();
    cancel.mockRestore();
    expect(await balanceOf(agent)).toBe(15);
  });

  it('goes on past a payment its provider cannot answer for, and asks about it again later', async () => {
    const { agent, user } = await signUp(t.app);
    const paid = await paidCardNobodyReported(agent, user.id, '12.00');
    // A row the provider has no record of (its intent was lost on the provider's side).
    const [ghost] = await t.database.db
      .insert(payments)
      .values({
        provider: 'sandbox-card',
        method: 'card',
        providerPaymentId: 'pi_sandbox_unknown_to_the_provider',
        userId: user.id,
        requestedAmountCents: 500n,
        currency: 'usd',
        status: 'pending',
        providerStatus: 'requires_payment_method',
        nextCheckAt: sql`now() - interval '1 minute'`,
      })
      .returning();

    expect(await reconcileDuePayments(deps, later(3 * MINUTE))).toEqual({
      checked: 1,
      credited: 1,
      failed: 1,
    });
    expect(await balanceOf(agent)).toBe(12);
    expect((await paymentRow(t.database, 'sandbox-card', paid)).status).toBe('credited');
    const after = await paymentRow(t.database, 'sandbox-card', ghost!.providerPaymentId);
    expect(after).toMatchObject({ status: 'pending', checks: 1 });
  });

  it('splits the due payments between passes running at once: each is asked about once', async () => {
    const { agent, user } = await signUp(t.app);
    const count = RECONCILE_BATCH + 5;
    for (let i = 0; i < count; i += 1) await paidCardNobodyReported(agent, user.id, '10.00');

    const now = later(3 * MINUTE);
    const retrieve = vi.spyOn(card, 'retrieveIntent');
    const reports = await Promise.all([
      reconcileDuePayments(deps, now),
      reconcileDuePayments(deps, now),
      reconcileDuePayments(deps, now),
    ]);
    const checked = reports.reduce((sum, report) => sum + report.checked, 0);
    // Three passes can take at most three batches, which is more than there are payments.
    expect(checked).toBe(count);
    expect(retrieve).toHaveBeenCalledTimes(count);
    expect(new Set(retrieve.mock.calls.map(([id]) => id)).size).toBe(count);
    retrieve.mockRestore();
    expect(await balanceOf(agent)).toBe(count * 10);
  });
});

describe('the reconciliation worker in the server', () => {
  it('runs on its interval while the app is up', async () => {
    const app = await createTestApp({ reconcilePaymentsEveryMs: 20 });
    try {
      const { agent, user } = await signUp(app.app);
      const providers = selectPaymentProviders(app.env, app.database.db, () => new Date());
      const { clientSecret, paymentIntentId } = (
        await agent.post('/api/create-payment-intent', { amount: '15.00' })
      ).json<{ clientSecret: string; paymentIntentId: string }>();
      await (providers.card as SandboxCardProvider).confirmCard({
        clientSecret,
        cardNumber: SANDBOX_TEST_CARDS.success,
        userId: user.id,
      });
      await app.database.db
        .update(payments)
        .set({ nextCheckAt: sql`now() - interval '1 second'` })
        .where(eq(payments.providerPaymentId, paymentIntentId));
      await vi.waitFor(async () => expect(await balanceOf(agent)).toBe(15), { timeout: 10_000 });
      expect(await depositTransfers(app.database, 'sandbox-card', paymentIntentId)).toBe(1);
      await expectLedgerHealthy(app.database);
    } finally {
      await app.close();
    }
  });
});
