import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  checkCryptoPaymentResponseSchema,
  confirmPaymentBodySchema,
  confirmPaymentResponseSchema,
  createCryptoPaymentBodySchema,
  createPaymentIntentBodySchema,
  createPaymentIntentResponseSchema,
  cryptoDepositNotificationBodySchema,
  cryptoDepositNotificationResponseSchema,
  cryptoPaymentParamsSchema,
  cryptoPaymentResponseSchema,
  cryptoStatusResponseSchema,
  paymentsConfigResponseSchema,
} from '#shared/contracts/payments.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../plugins/access.ts';
import { requirePlayerLocation } from '../accounts/index.ts';
import { selectPaymentProviders } from './providers/select-providers.ts';
import { startPaymentReconciliation } from './reconcile.ts';
import { sandboxPaymentRoutes } from './sandbox-routes.ts';
import {
  checkCryptoDeposit,
  confirmCardDeposit,
  createCardDeposit,
  createCryptoDeposit,
  createCryptoStatusCheck,
  recordManualCryptoDeposit,
  type DisputeRecorder,
  type PaymentDeps,
} from './service.ts';
import { paymentWebhookRoutes } from './webhook-routes.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

const idempotencyHeaderSchema = z.object({
  'idempotency-key': z.string().min(8).max(200).optional(),
});

/**
 * Deposits by card and cryptocurrency (docs/product.md#calls, docs/payments.md): the player's calls
 * here, the providers' webhooks and the sandbox's stand-in pages in their own plugins.
 */
export const paymentRoutes =
  (
    ctx: AppContext,
    options: { disputes: DisputeRecorder; reconcileEveryMs?: number | undefined },
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const providers = selectPaymentProviders(ctx.env, ctx.db, ctx.clock);
    const deps: PaymentDeps = { ctx, providers, log: app.log };
    const { reconcileEveryMs } = options;
    if (reconcileEveryMs) {
      let stop: (() => Promise<void>) | undefined;
      app.addHook('onReady', async () => {
        stop = startPaymentReconciliation(deps, reconcileEveryMs);
      });
      app.addHook('onClose', async () => stop?.());
    }
    if (providers.card.mode === 'sandbox') {
      app.log.info(
        'STRIPE_SECRET_KEY is not set: card deposits use the offline sandbox (TEST MODE)',
      );
    }
    if (providers.crypto.mode === 'sandbox') {
      app.log.info(
        'NOWPAYMENTS_API_KEY is not set: crypto deposits use the offline sandbox (TEST MODE)',
      );
    }
    const cryptoStatus = createCryptoStatusCheck(deps);

    app.get(
      '/api/payments/config',
      {
        config: { access: 'user' },
        schema: { response: { 200: paymentsConfigResponseSchema, 401: errorBodySchema } },
      },
      async () => ({
        card: {
          enabled: ctx.env.CARD_PAYMENTS_ENABLED,
          mode: providers.card.mode,
          publishableKey:
            providers.card.mode === 'stripe' ? (ctx.env.STRIPE_PUBLISHABLE_KEY ?? null) : null,
        },
        crypto: {
          enabled: ctx.env.CRYPTO_PAYMENTS_ENABLED,
          mode: providers.crypto.mode,
          payCurrency: providers.crypto.payCurrency,
        },
      }),
    );

    app.post(
      '/api/create-payment-intent',
      {
        config: { access: 'user' },
        schema: {
          body: createPaymentIntentBodySchema,
          headers: idempotencyHeaderSchema,
          response: { 200: createPaymentIntentResponseSchema, ...errors, 402: errorBodySchema },
        },
      },
      async (request) => {
        const user = requireUser(request);
        // Refused before any provider is called (docs/responsible-play.md).
        await requirePlayerLocation(deps.ctx, request, user.id);
        return createCardDeposit(deps, {
          userId: user.id,
          amountCents: request.body.amount,
          requestKey: request.headers['idempotency-key'],
        });
      },
    );

    app.post(
      '/api/confirm-payment',
      {
        config: { access: 'user' },
        schema: {
          body: confirmPaymentBodySchema,
          response: { 200: confirmPaymentResponseSchema, ...errors, 409: errorBodySchema },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const { creditedCents } = await confirmCardDeposit(deps, {
          userId: user.id,
          paymentIntentId: request.body.paymentIntentId,
        });
        return { success: true as const, amount: centsToDollarNumber(creditedCents) };
      },
    );

    app.get(
      '/api/crypto-status',
      {
        config: { access: 'user' },
        schema: { response: { 200: cryptoStatusResponseSchema, 401: errorBodySchema } },
      },
      async () => cryptoStatus(),
    );

    app.post(
      '/api/create-crypto-payment',
      {
        config: { access: 'user' },
        schema: {
          body: createCryptoPaymentBodySchema,
          response: { 200: cryptoPaymentResponseSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        await requirePlayerLocation(deps.ctx, request, user.id);
        return createCryptoDeposit(deps, { userId: user.id, amountCents: request.body.amount });
      },
    );

    app.get(
      '/api/check-crypto-payment/:paymentId',
      {
        config: { access: 'user' },
        schema: {
          params: cryptoPaymentParamsSchema,
          response: { 200: checkCryptoPaymentResponseSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const status = await checkCryptoDeposit(deps, {
          userId: user.id,
          paymentId: request.params.paymentId,
        });
        return { status };
      },
    );

    app.post(
      '/api/crypto-deposit-notification',
      {
        config: { access: 'user' },
        schema: {
          body: cryptoDepositNotificationBodySchema,
          response: { 201: cryptoDepositNotificationResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        await requirePlayerLocation(deps.ctx, request, user.id);
        const { paymentId } = await recordManualCryptoDeposit(deps, {
          userId: user.id,
          amountCents: request.body.amount,
          currency: request.body.currency,
        });
        return reply.code(201).send({
          paymentId,
          status: 'pending' as const,
          paymentUrl: ctx.env.CRYPTO_FALLBACK_PAYMENT_URL ?? null,
        });
      },
    );

    await app.register(paymentWebhookRoutes(deps, options.disputes));
    await app.register(sandboxPaymentRoutes(deps));
  };
