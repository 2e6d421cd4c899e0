import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { PAYMENT_MESSAGES, SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import type { Database, Executor } from '../../../db/client.ts';
import { cardDisputes } from '../../../db/schema/card-disputes.ts';
import {
  payments,
  sandboxPayments,
  sandboxRefunds,
  type SandboxPayment,
} from '../../../db/schema/payments.ts';
import {
  PaymentProviderError,
  UNPAID_INTENT_STATUSES,
  type CardIntent,
  type CardProvider,
} from './types.ts';

export interface SandboxCardProvider extends CardProvider {
  readonly name: 'sandbox-card';
  readonly mode: 'sandbox';
  /**
   * What Stripe.js's confirmCardPayment does against Stripe: pays the intent named by the client
   * secret with a test card. Only the intent's owner may pay it.
   */
  confirmCard(input: {
    clientSecret: string;
    cardNumber: string;
    userId: number;
  }): Promise<CardIntent>;
}

const CLIENT_SECRET_PATTERN = /^(pi_[A-Za-z0-9]+)_secret_([A-Za-z0-9]+)$/;
/** The intent a sandbox client secret names, or null for text not shaped like one. */
export function sandboxIntentIdOf(clientSecret: string): string | null {
  return CLIENT_SECRET_PATTERN.exec(clientSecret)?.[1] ?? null;
}
const digitsOf = (cardNumber: string): string => cardNumber.replace(/[\s-]/g, '');
const SUCCESS_CARD = digitsOf(SANDBOX_TEST_CARDS.success);
const DECLINED_CARD = digitsOf(SANDBOX_TEST_CARDS.declined);

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

function toCardIntent(row: SandboxPayment): CardIntent {
  return {
    id: row.id,
    status: row.status,
    amountCents: row.amountCents,
    amountReceivedCents: row.status === 'succeeded' ? row.amountCents : 0n,
    currency: row.currency,
    userId: row.userId,
  };
}

async function findCardIntent(db: Executor, id: string): Promise<SandboxPayment | undefined> {
  const [row] = await db
    .select()
    .from(sandboxPayments)
    .where(and(eq(sandboxPayments.id, id), eq(sandboxPayments.kind, 'card')))
    .limit(1);
  return row;
}

/**
 * The offline stand-in for Stripe (docs/payments.md): intents live in `sandbox_payments`, client
 * secrets are shaped like Stripe's (`<paymentIntentId>_secret_<random>`), and the test cards
 * 4242 4242 4242 4242 (success) and 4000 0000 0000 0002 (declined) behave as in Stripe's test mode.
 * As with Stripe, a creation retried with the same idempotency key answers the same intent (with
 * a fresh client secret: only a hash of it is kept, and the retry is the answer the client reads).
 */
export function createSandboxCardProvider(db: Database, clock: () => Date): SandboxCardProvider {
  return {
    name: 'sandbox-card',
    mode: 'sandbox',

    async createIntent({ userId, amountCents, idempotencyKey }) {
      const id = `pi_sandbox${sha256(idempotencyKey).toString('hex').slice(0, 24)}`;
      const secret = randomBytes(16).toString('hex');
      const clientSecretHash = sha256(secret).toString('hex');
      const now = clock();
      const [row] = await db
        .insert(sandboxPayments)
        .values({
          id,
          kind: 'card',
          userId,
          amountCents,
          currency: 'usd',
          status: 'requires_payment_method',
          clientSecretHash,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({ target: sandboxPayments.id, set: { clientSecretHash } })
        .returning();
      if (!row) throw new Error(`sandbox intent ${id} was not stored`);
      return { ...toCardIntent(row), clientSecret: `${id}_secret_${secret}` };
    },

    async retrieveIntent(id) {
      const row = await findCardIntent(db, id);
      if (!row) throw new PaymentProviderError('not_found', `No such payment_intent: ${id}`);
      return toCardIntent(row);
    },

    async cancelIntent(id) {
      const [cancelled] = await db
        .update(sandboxPayments)
        .set({ status: 'canceled', updatedAt: clock() })
        .where(
          and(
            eq(sandboxPayments.id, id),
            eq(sandboxPayments.kind, 'card'),
            inArray(sandboxPayments.status, [...UNPAID_INTENT_STATUSES]),
          ),
        )
        .returning();
      if (cancelled) return toCardIntent(cancelled);
      const row = await findCardIntent(db, id);
      if (!row) throw new PaymentProviderError('not_found', `No such payment_intent: ${id}`);
      return toCardIntent(row);
    },

    // The sandbox has no bank to read evidence: the dispute's row keeps what was sent.
    async sendDisputeEvidence() {},

    // As at Stripe: a refund is found again by its key, and never more than was paid goes back.
    async refundPayment({ paymentIntentId, amountCents, refundKey }) {
      return db.transaction(async (tx) => {
        const [intent] = await tx
          .select()
          .from(sandboxPayments)
          .where(and(eq(sandboxPayments.id, paymentIntentId), eq(sandboxPayments.kind, 'card')))
          .for('update');
        if (!intent)
          throw new PaymentProviderError('not_found', `No such payment_intent: ${paymentIntentId}`);
        const [made] = await tx
          .select({ id: sandboxRefunds.id })
          .from(sandboxRefunds)
          .where(eq(sandboxRefunds.refundKey, refundKey));
        if (made) return { status: 'succeeded' as const, refundId: made.id };
        // As Stripe does, a disputed payment is not refunded: the bank has taken it back.
        const [disputed] = await tx
          .select({ id: cardDisputes.id })
          .from(cardDisputes)
          .innerJoin(payments, eq(payments.id, cardDisputes.paymentId))
          .where(
            and(
              eq(payments.provider, 'sandbox-card'),
              eq(payments.providerPaymentId, paymentIntentId),
            ),
          );
        if (disputed) {
          return {
            status: 'failed' as const,
            refundId: null,
            reason: `The payment ${paymentIntentId} has been charged back; cannot issue a refund.`,
          };
        }
        const [refunded] = await tx
          .select({ cents: sql<string>`coalesce(sum(${sandboxRefunds.amountCents}), 0)::text` })
          .from(sandboxRefunds)
          .where(eq(sandboxRefunds.paymentIntentId, paymentIntentId));
        const left =
          intent.status === 'succeeded' ? intent.amountCents - BigInt(refunded?.cents ?? '0') : 0n;
        if (amountCents > left) {
          return {
            status: 'failed' as const,
            refundId: null,
            reason: `Refund amount (${amountCents} cents) is greater than what is left to refund (${left} cents)`,
          };
        }
        const id = `re_sandbox${sha256(refundKey).toString('hex').slice(0, 24)}`;
        await tx
          .insert(sandboxRefunds)
          .values({ id, paymentIntentId, refundKey, amountCents, createdAt: clock() });
        return { status: 'succeeded' as const, refundId: id };
      });
    },

    async confirmCard({ clientSecret, cardNumber, userId }) {
      const match = CLIENT_SECRET_PATTERN.exec(clientSecret);
      const row = match?.[1] ? await findCardIntent(db, match[1]) : undefined;
      const secretMatches =
        row?.clientSecretHash != null &&
        match?.[2] !== undefined &&
        timingSafeEqual(sha256(match[2]), Buffer.from(row.clientSecretHash, 'hex'));
      if (!row || !secretMatches || row.userId !== userId) {
        throw new PaymentProviderError('not_found', PAYMENT_MESSAGES.paymentNotFound);
      }
      if (row.status === 'succeeded') return toCardIntent(row);
      if (row.status === 'canceled') {
        throw new PaymentProviderError('declined', PAYMENT_MESSAGES.paymentIncomplete);
      }

      const digits = digitsOf(cardNumber);
      if (digits === DECLINED_CARD) {
        throw new PaymentProviderError('declined', PAYMENT_MESSAGES.cardDeclined);
      }
      if (digits !== SUCCESS_CARD) {
        throw new PaymentProviderError('declined', PAYMENT_MESSAGES.cardNumberIncorrect);
      }
      // Paid only while still unpaid: a cancellation that came first wins, as at Stripe.
      const [paid] = await db
        .update(sandboxPayments)
        .set({ status: 'succeeded', updatedAt: clock() })
        .where(
          and(
            eq(sandboxPayments.id, row.id),
            inArray(sandboxPayments.status, [...UNPAID_INTENT_STATUSES]),
          ),
        )
        .returning();
      if (paid) return toCardIntent(paid);
      const now = await findCardIntent(db, row.id);
      if (now?.status === 'succeeded') return toCardIntent(now);
      throw new PaymentProviderError('declined', PAYMENT_MESSAGES.paymentIncomplete);
    },
  };
}
