import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  cryptoPaymentStatusSchema,
  PAYMENT_MESSAGES,
  rateLimitedMessage,
  type CryptoPaymentResponse,
  type CryptoPaymentStatus,
  type SandboxCryptoSimulation,
} from '#shared/contracts/payments.ts';
import type { AppContext } from '../../context.ts';
import type { NewPayment, Payment } from '../../db/schema/payments.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { hitRateLimit, type RateRule } from '../../lib/rate-limiter.ts';
import { lockPlayerDeposits, requireWithinDepositLimits } from '../responsible-gaming/index.ts';
import { requireCashPlayAllowed } from '../accounts/index.ts';
import {
  nowPaymentSchema,
  toCryptoPaymentRecord,
} from './providers/nowpayments-crypto-provider.ts';
import { verifyNowPaymentsSignature } from './providers/nowpayments-signature.ts';
import type { PaymentProviders } from './providers/select-providers.ts';
import {
  InvalidWebhookSignatureError,
  type CardWebhookEvent,
  type StripeCardProvider,
} from './providers/stripe-card-provider.ts';
import { sandboxIntentIdOf } from './providers/sandbox-card-provider.ts';
import {
  PaymentProviderError,
  UNPAID_INTENT_STATUSES,
  type CardDisputeReport,
  type CardFraudWarningReport,
  type CardIntent,
  type CryptoPaymentRecord,
} from './providers/types.ts';
import {
  findPayment,
  findPaymentByRequestKey,
  findUserPayment,
  insertPayment,
  recordWebhookEvent,
} from './repository.ts';
import {
  applyPaymentUpdate,
  cardUpdate,
  cryptoUpdate,
  settlePayment,
  type UpdateResult,
} from './settle.ts';

/** What every payment operation works with: built once when the routes are registered. */
export interface PaymentDeps {
  ctx: AppContext;
  providers: PaymentProviders;
  log: FastifyBaseLogger;
}

/**
 * What happens to a card dispute a provider reports (docs/chargebacks.md): the chargebacks
 * procedure, handed to the payment routes by the app, since it spans payouts and accounts too.
 * It runs in the transaction that records the webhook event, so a redelivery finds it done.
 */
export interface DisputeRecorder {
  record(
    uow: UnitOfWork,
    provider: 'stripe' | 'sandbox-card',
    report: CardDisputeReport,
  ): Promise<void>;
  /** A card network's early warning of fraud on a payment, in the same transaction. */
  recordFraudWarning(
    uow: UnitOfWork,
    provider: 'stripe' | 'sandbox-card',
    report: CardFraudWarningReport,
  ): Promise<void>;
}

type Kind = 'card' | 'crypto';

const unavailable = (kind: Kind): AppError =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    kind === 'card' ? PAYMENT_MESSAGES.cardUnavailable : PAYMENT_MESSAGES.cryptoUnavailable,
  );

/**
 * Turns a provider failure into the answer the player sees (docs/product.md#messages); other errors
 * pass.
 */
function toAppError(deps: PaymentDeps, kind: Kind, error: unknown): unknown {
  if (!(error instanceof PaymentProviderError)) return error;
  switch (error.kind) {
    case 'declined':
      return new AppError('PAYMENT_DECLINED', error.message);
    case 'not_found':
      return new AppError('NOT_FOUND', PAYMENT_MESSAGES.paymentNotFound);
    case 'amount_too_small':
      return new AppError('VALIDATION_FAILED', PAYMENT_MESSAGES.providerMinimum, {
        fields: { amount: PAYMENT_MESSAGES.providerMinimum },
      });
  }
  // Everything else is out of the player's hands; the log keeps what the provider said.
  deps.log.warn({ err: error }, `${kind} payment provider unavailable`);
  return unavailable(kind);
}

async function callProvider<T>(deps: PaymentDeps, kind: Kind, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toAppError(deps, kind, error);
  }
}

async function throttle(deps: PaymentDeps, rule: RateRule, userId: number): Promise<void> {
  const { ctx } = deps;
  const check = await hitRateLimit(ctx.db, rule, `user:${userId}`, ctx.clock());
  if (check.exceeded) {
    throw new AppError('RATE_LIMITED', rateLimitedMessage(check.retryAfterSeconds), {
      retryAfter: check.retryAfterSeconds,
    });
  }
}

/** Logs a provider report that disagrees with our record (nothing was credited). */
export function logMismatch(deps: PaymentDeps, result: UpdateResult, source: string): void {
  if (result.kind === 'mismatch') {
    deps.log.error(
      { paymentId: result.payment.id, reason: result.reason, source },
      'payment report disagrees with our record: not credited',
    );
  }
}

/**
 * The rules a new deposit meets before any provider is called (docs/fair-play.md,
 * docs/responsible-play.md): no suspension or break, the method on, the rate, and the player's own
 * deposit limits.
 */
async function requireDepositAllowed(
  deps: PaymentDeps,
  kind: Kind,
  userId: number,
  amountCents: bigint,
): Promise<void> {
  const { ctx } = deps;
  // A crypto deposit is how a player whose money is locked repays (docs/chargebacks.md).
  await requireCashPlayAllowed(ctx.db, userId, ctx.clock(), undefined, {
    repaying: kind === 'crypto',
  });
  const enabled = kind === 'card' ? ctx.env.CARD_PAYMENTS_ENABLED : ctx.env.CRYPTO_PAYMENTS_ENABLED;
  if (!enabled) throw unavailable(kind);
  await throttle(deps, ctx.rateLimits.paymentCreatePerUser, userId);
  await requireWithinDepositLimits(ctx.db, userId, amountCents, ctx.clock());
}

/**
 * Stores a new deposit once its provider has made it. The player's deposit lock and a second
 * look at the rules make this the moment that counts: of two deposits that passed the first look
 * side by side, the second is judged with the first one counted, and refused if together they
 * pass a limit (its provider record is never shown, so it can never be paid). A retry of a
 * payment already stored answers it as it is.
 */
async function recordNewDeposit(deps: PaymentDeps, values: NewPayment): Promise<Payment> {
  const { ctx } = deps;
  return inTransaction(ctx.db, async ({ tx }) => {
    await lockPlayerDeposits(tx, values.userId);
    const stored = await findPayment(tx, values.provider, values.providerPaymentId);
    if (stored) return stored;
    const now = ctx.clock();
    await requireCashPlayAllowed(tx, values.userId, now, undefined, {
      repaying: values.method === 'crypto',
    });
    await requireWithinDepositLimits(tx, values.userId, values.requestedAmountCents, now);
    return insertPayment(tx, values);
  });
}

// ---- Card ---------------------------------------------------------------------------------

export async function createCardDeposit(
  deps: PaymentDeps,
  input: { userId: number; amountCents: bigint; requestKey: string | undefined },
): Promise<{ clientSecret: string; paymentIntentId: string }> {
  const { ctx, providers } = deps;
  // A retry of a request already answered (same Idempotency-Key) answers the same payment: it
  // is not a second deposit, so it is not judged again (it would count itself against a limit).
  const retried = input.requestKey
    ? await findPaymentByRequestKey(ctx.db, input.userId, input.requestKey)
    : undefined;
  if (retried && retried.requestedAmountCents !== input.amountCents) {
    throw new AppError('CONFLICT', PAYMENT_MESSAGES.requestKeyReused);
  }
  if (!retried) await requireDepositAllowed(deps, 'card', input.userId, input.amountCents);
  const intent = await callProvider(deps, 'card', () =>
    providers.card.createIntent({
      userId: input.userId,
      amountCents: input.amountCents,
      idempotencyKey: `deposit-intent:${input.userId}:${input.requestKey ?? randomUUID()}`,
    }),
  );
  // Stripe keeps an idempotency key for a day: a later retry makes another intent, never shown.
  if (retried && retried.providerPaymentId !== intent.id) {
    throw new AppError('CONFLICT', PAYMENT_MESSAGES.requestKeyReused);
  }
  const now = ctx.clock();
  await recordNewDeposit(deps, {
    provider: providers.card.name,
    method: 'card',
    providerPaymentId: intent.id,
    requestKey: input.requestKey ?? null,
    userId: input.userId,
    requestedAmountCents: intent.amountCents,
    currency: intent.currency,
    status: 'pending',
    providerStatus: intent.status,
    createdAt: now,
    updatedAt: now,
  });
  return { clientSecret: intent.clientSecret, paymentIntentId: intent.id };
}

/**
 * Credits a card payment from the provider's own record: its received amount, if it
 * succeeded, in US dollars, for this player. The amount the client sends plays no part. A
 * suspended player's payment is credited too: it began before the suspension, and the money has
 * already left their card.
 */
export async function confirmCardDeposit(
  deps: PaymentDeps,
  input: { userId: number; paymentIntentId: string },
): Promise<{ creditedCents: bigint }> {
  const { ctx, providers } = deps;
  await throttle(deps, ctx.rateLimits.paymentStatusPerUser, input.userId);
  const intent = await callProvider(deps, 'card', () =>
    providers.card.retrieveIntent(input.paymentIntentId),
  );
  if (intent.userId !== input.userId) {
    throw new AppError('NOT_FOUND', PAYMENT_MESSAGES.paymentNotFound);
  }
  if (intent.currency !== 'usd') throw new AppError('CONFLICT', PAYMENT_MESSAGES.notUsd);
  return creditCardIntent(deps, intent, 'confirm');
}

async function creditCardIntent(
  deps: PaymentDeps,
  intent: CardIntent,
  source: string,
): Promise<{ creditedCents: bigint }> {
  const result = await settlePayment(
    deps.ctx,
    cardUpdate(deps.providers.card.name, intent, { recordIfMissing: true }),
  );
  logMismatch(deps, result, source);
  if (result.kind !== 'applied') throw new AppError('NOT_FOUND', PAYMENT_MESSAGES.paymentNotFound);
  if (!result.credited || result.payment.creditedAmountCents === null) {
    throw new AppError('PAYMENT_NOT_COMPLETED', PAYMENT_MESSAGES.paymentIncomplete);
  }
  return { creditedCents: result.payment.creditedAmountCents };
}

/**
 * The sandbox's card form: pays the intent with a test card, then credits it at once, as
 * Stripe's `payment_intent.succeeded` webhook would.
 */
export async function confirmSandboxCard(
  deps: PaymentDeps,
  input: { userId: number; clientSecret: string; cardNumber: string },
): Promise<{ paymentIntentId: string }> {
  const { card } = deps.providers;
  if (card.name !== 'sandbox-card') throw new AppError('NOT_FOUND', 'Not found');
  let intent: CardIntent;
  try {
    intent = await card.confirmCard(input);
  } catch (error) {
    // Only the owner's own intent is ever declined (anything else is "not found").
    const declinedId =
      error instanceof PaymentProviderError && error.kind === 'declined'
        ? sandboxIntentIdOf(input.clientSecret)
        : null;
    if (declinedId) logMismatch(deps, await endUnpaidIntent(deps, declinedId), 'sandbox decline');
    throw toAppError(deps, 'card', error);
  }
  await creditCardIntent(deps, intent, 'sandbox card');
  return { paymentIntentId: intent.id };
}

/**
 * Ends a card payment nobody paid: cancelled at the provider, so it can never be paid later, and
 * failed in our books, so it stops holding the player's deposit limits (docs/responsible-play.md).
 * Our card form never pays an intent again after a failure (RETRY makes a new one); the
 * reconciliation worker ends the ones left open past a checkout's time. An intent paid in the
 * meantime is credited instead.
 */
export async function endUnpaidIntent(deps: PaymentDeps, intentId: string): Promise<UpdateResult> {
  const { card } = deps.providers;
  const intent = await card.cancelIntent(intentId);
  return settlePayment(deps.ctx, cardUpdate(card.name, intent, { recordIfMissing: false }));
}

/**
 * Stripe's webhook: a signed event, handled once; `payment_intent.*` events settle payments,
 * `charge.dispute.*` and `radar.early_fraud_warning.created` events go to the dispute recorder.
 */
export async function handleStripeWebhook(
  deps: PaymentDeps,
  stripe: StripeCardProvider,
  disputes: DisputeRecorder,
  input: { rawBody: Buffer; signature: string | undefined },
): Promise<void> {
  const secret = deps.ctx.env.STRIPE_WEBHOOK_SECRET;
  if (!secret) {
    deps.log.error('a Stripe webhook arrived but STRIPE_WEBHOOK_SECRET is not set');
    throw unavailable('card');
  }
  let event: CardWebhookEvent;
  try {
    event = stripe.verifyWebhook(input.rawBody, input.signature, secret);
  } catch (error) {
    if (error instanceof InvalidWebhookSignatureError || error instanceof PaymentProviderError) {
      deps.log.warn({ err: error }, 'Stripe webhook refused');
      throw new AppError('INVALID_SIGNATURE', PAYMENT_MESSAGES.invalidSignature);
    }
    throw error;
  }
  let { intent } = event;
  if (
    event.type === 'payment_intent.payment_failed' &&
    intent &&
    intent.userId !== null &&
    UNPAID_INTENT_STATUSES.has(intent.status)
  ) {
    // A failed attempt ends the payment (see endUnpaidIntent); a failure to cancel answers 503
    // and Stripe delivers the event again.
    const failedId = intent.id;
    intent = await callProvider(deps, 'card', () => stripe.cancelIntent(failedId));
  }
  const result = await inTransaction(deps.ctx.db, async (uow) => {
    if (!(await recordWebhookEvent(uow.tx, 'stripe', event.id, event.type))) return null;
    if (event.dispute) {
      await disputes.record(uow, 'stripe', event.dispute);
      return null;
    }
    if (event.fraudWarning) {
      await disputes.recordFraudWarning(uow, 'stripe', event.fraudWarning);
      return null;
    }
    if (!intent || intent.userId === null) return null;
    return applyPaymentUpdate(
      deps.ctx,
      uow,
      cardUpdate('stripe', intent, { recordIfMissing: true }),
    );
  });
  if (result) logMismatch(deps, result, `stripe ${event.type}`);
}

// ---- Crypto -------------------------------------------------------------------------------

/** Shows a configured key's shape, never its characters: "XXXXXXX-XXXXXXX-…". */
function maskKey(key: string): string {
  return key.replace(/[A-Za-z0-9]/g, 'X');
}

const AVAILABILITY_TTL_MS = 30_000;

/** Crypto deposits are on and their provider answers (checked at most every 30 s). */
export function createCryptoStatusCheck(deps: PaymentDeps) {
  let cached: { available: boolean; atMs: number } | null = null;
  return async (): Promise<{ isConfigured: boolean; publicKeyPattern: string | null }> => {
    const { env } = deps.ctx;
    if (!env.CRYPTO_PAYMENTS_ENABLED) return { isConfigured: false, publicKeyPattern: null };
    const nowMs = deps.ctx.clock().getTime();
    if (!cached || nowMs - cached.atMs >= AVAILABILITY_TTL_MS) {
      cached = { available: await deps.providers.crypto.isAvailable(), atMs: nowMs };
    }
    return {
      isConfigured: cached.available,
      publicKeyPattern: env.NOWPAYMENTS_API_KEY ? maskKey(env.NOWPAYMENTS_API_KEY) : null,
    };
  };
}

export async function createCryptoDeposit(
  deps: PaymentDeps,
  input: { userId: number; amountCents: bigint },
): Promise<CryptoPaymentResponse> {
  const { ctx, providers } = deps;
  await requireDepositAllowed(deps, 'crypto', input.userId, input.amountCents);
  const orderId = `deposit-${input.userId}-${randomBytes(8).toString('hex')}`;
  const record = await callProvider(deps, 'crypto', () =>
    providers.crypto.createPayment({ ...input, orderId }),
  );
  const now = ctx.clock();
  await recordNewDeposit(deps, {
    provider: providers.crypto.name,
    method: 'crypto',
    providerPaymentId: record.id,
    userId: input.userId,
    orderId,
    requestedAmountCents: input.amountCents,
    currency: 'usd',
    status: 'pending',
    providerStatus: record.status,
    payCurrency: record.payCurrency,
    payAmount: record.payAmount,
    payAddress: record.payAddress,
    expiresAt: record.expiresAt,
    createdAt: now,
    updatedAt: now,
  });
  return {
    paymentId: record.id,
    paymentUrl: providers.crypto.mode === 'sandbox' ? `/sandbox/crypto/${record.id}` : null,
    paymentAmount: Number(record.payAmount),
    paymentCurrency: record.payCurrency,
    paymentStatus: record.status,
    paymentAddress: record.payAddress,
    orderId,
    qrCodeUrl: null,
    expirationTime: record.expiresAt ? record.expiresAt.toISOString() : null,
  };
}

function creditedStatus(payment: Payment): CryptoPaymentStatus {
  return cryptoPaymentStatusSchema.parse(payment.providerStatus);
}

/** The poll: asks the provider, settles what it says, and answers with its status. */
export async function checkCryptoDeposit(
  deps: PaymentDeps,
  input: { userId: number; paymentId: string },
): Promise<CryptoPaymentStatus> {
  const { ctx, providers } = deps;
  await throttle(deps, ctx.rateLimits.paymentStatusPerUser, input.userId);
  const payment = await findUserPayment(
    ctx.db,
    input.userId,
    providers.crypto.name,
    input.paymentId,
  );
  if (!payment) throw new AppError('NOT_FOUND', PAYMENT_MESSAGES.paymentNotFound);
  if (payment.status === 'credited') return creditedStatus(payment);
  const record = await callProvider(deps, 'crypto', () =>
    providers.crypto.getPayment(input.paymentId),
  );
  const result = await settlePayment(ctx, cryptoUpdate(providers.crypto.name, record));
  logMismatch(deps, result, 'poll');
  return record.status;
}

/** A sandbox crypto payment as its owner's checkout page shows it. */
export async function getSandboxCryptoPayment(
  deps: PaymentDeps,
  input: { userId: number; paymentId: string },
): Promise<CryptoPaymentRecord> {
  const { crypto } = deps.providers;
  if (crypto.name !== 'sandbox-crypto') throw new AppError('NOT_FOUND', 'Not found');
  return callProvider(deps, 'crypto', () => crypto.getOwnPayment(input.paymentId, input.userId));
}

/** The sandbox's "blockchain": sets the payment's status and delivers the IPN at once. */
export async function simulateSandboxCrypto(
  deps: PaymentDeps,
  input: {
    userId: number;
    paymentId: string;
    status: SandboxCryptoSimulation;
  },
): Promise<CryptoPaymentStatus> {
  const { crypto } = deps.providers;
  if (crypto.name !== 'sandbox-crypto') throw new AppError('NOT_FOUND', 'Not found');
  const record = await callProvider(deps, 'crypto', () =>
    crypto.simulate(input.paymentId, input.userId, input.status),
  );
  const result = await settlePayment(deps.ctx, cryptoUpdate('sandbox-crypto', record));
  logMismatch(deps, result, 'sandbox simulation');
  return record.status;
}

/**
 * NOWPayments' IPN: signed over the key-sorted JSON body. Reports for payments we do not know
 * are acknowledged and ignored, so NOWPayments stops resending them.
 */
export async function handleNowPaymentsIpn(
  deps: PaymentDeps,
  input: { rawBody: Buffer; signature: string | undefined },
): Promise<void> {
  const secret = deps.ctx.env.NOWPAYMENTS_IPN_SECRET;
  if (!secret) {
    deps.log.error('a NOWPayments IPN arrived but NOWPAYMENTS_IPN_SECRET is not set');
    throw unavailable('crypto');
  }
  let body: unknown;
  try {
    body = JSON.parse(input.rawBody.toString('utf8'));
  } catch {
    throw new AppError('VALIDATION_FAILED', 'The body is not valid JSON.');
  }
  if (!verifyNowPaymentsSignature(body, input.signature, secret)) {
    deps.log.warn('NOWPayments IPN refused: bad signature');
    throw new AppError('INVALID_SIGNATURE', PAYMENT_MESSAGES.invalidSignature);
  }
  const parsed = nowPaymentSchema.safeParse(body);
  if (!parsed.success) {
    deps.log.warn({ issues: parsed.error.issues }, 'NOWPayments IPN ignored: unexpected shape');
    return;
  }
  let record: CryptoPaymentRecord;
  try {
    record = toCryptoPaymentRecord(parsed.data);
  } catch (error) {
    // Signed but unusable: acknowledged, so that NOWPayments does not resend it for days.
    if (!(error instanceof PaymentProviderError)) throw error;
    deps.log.warn({ err: error }, 'NOWPayments IPN ignored');
    return;
  }
  const result = await settlePayment(deps.ctx, cryptoUpdate('nowpayments', record));
  if (result.kind === 'unknown') {
    deps.log.warn({ paymentId: record.id }, 'NOWPayments IPN for an unknown payment ignored');
  }
  logMismatch(deps, result, 'ipn');
}

/**
 * The client's fallback when the crypto API fails: the player says they are paying by other
 * means; the admin checks and credits by hand, so nothing is credited here.
 */
export async function recordManualCryptoDeposit(
  deps: PaymentDeps,
  input: { userId: number; amountCents: bigint; currency: string },
): Promise<{ paymentId: string }> {
  const { ctx } = deps;
  await requireDepositAllowed(deps, 'crypto', input.userId, input.amountCents);
  const now = ctx.clock();
  const payment = await recordNewDeposit(deps, {
    provider: 'manual-crypto',
    method: 'crypto',
    providerPaymentId: `manual-${randomUUID()}`,
    userId: input.userId,
    requestedAmountCents: input.amountCents,
    currency: 'usd',
    status: 'pending',
    providerStatus: 'reported',
    payCurrency: input.currency,
    createdAt: now,
    updatedAt: now,
  });
  deps.log.info(
    { paymentId: payment.id, userId: input.userId },
    'manual crypto deposit reported for admin review',
  );
  return { paymentId: payment.providerPaymentId };
}
