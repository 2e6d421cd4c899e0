import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  adminPayoutListQuerySchema,
  adminPayoutSchema,
  completePayoutBodySchema,
  failPayoutBodySchema,
  PAYOUT_MESSAGES,
  payoutIdParamsSchema,
  payoutListQuerySchema,
  payoutLimitsSchema,
  payoutBalancesSchema,
  payoutOptionsSchema,
  payoutRequestBodySchema,
  payoutRequestResponseSchema,
  payoutSchema,
  sandboxPayoutSimulateBodySchema,
} from '#shared/contracts/payouts.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import { findPayoutCoin } from '#shared/payout-coins.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { PeriodicWorker } from '../../lib/periodic-worker.ts';
import { hitRateLimit } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';
import { selectPayoutProvider } from './providers/select-payout-provider.ts';
import { findPayoutWithOwner, listOwnPayouts, listPayoutsWithOwners } from './repository.ts';
import { handlePayoutIpn, simulateSandboxPayout, startPayoutSender } from './sender.ts';
import { approvePayout, decidePayout, requestPayout } from './service.ts';
import { payoutBalancesOf } from './balances.ts';
import { payoutLimitsOf } from './card-money.ts';
import { toAdminPayoutView, toPayoutView } from './view.ts';
import { type PayoutSender } from './stages.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

const WEBHOOK_BODY_BYTES_MAX = 512 * 1024;

export interface PayoutRouteOptions {
  /** How often this instance's sender looks for due payouts; unset, none runs (tests pass). */
  sendEveryMs?: number | undefined;
}

export const payoutRoutes =
  (ctx: AppContext, options: PayoutRouteOptions = {}): FastifyPluginAsyncZod =>
  async (app) => {
    const provider = selectPayoutProvider(ctx.env, ctx.clock);
    let worker: PeriodicWorker | undefined;
    const sender: PayoutSender = { provider, wake: () => worker?.wake() };
    const { sendEveryMs } = options;
    if (provider && sendEveryMs) {
      app.addHook('onReady', async () => {
        worker = startPayoutSender(ctx, provider, app.log, sendEveryMs);
      });
      app.addHook('onClose', async () => worker?.stop());
    }
    if (!provider) {
      app.log.warn(
        'NOWPAYMENTS_EMAIL, NOWPAYMENTS_PASSWORD and NOWPAYMENTS_2FA_SECRET are not set: every payout waits for an admin',
      );
    } else if (provider.name === 'sandbox') {
      app.log.info('NOWPAYMENTS_API_KEY is not set: payouts use the offline sandbox (TEST MODE)');
    }

    async function adminView(id: number) {
      const row = await findPayoutWithOwner(ctx.db, id);
      if (!row) throw new AppError('NOT_FOUND', PAYOUT_MESSAGES.notFound);
      return toAdminPayoutView(row.payout, row.username);
    }

    app.get(
      '/api/payouts',
      {
        config: { access: 'user' },
        schema: {
          querystring: payoutListQuerySchema,
          response: { 200: z.array(payoutSchema), ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        return (await listOwnPayouts(ctx.db, user.id, request.query)).map(toPayoutView);
      },
    );

    app.get(
      '/api/payouts/options',
      {
        config: { access: 'user' },
        schema: { response: { 200: payoutOptionsSchema, ...errors } },
      },
      async () => ({
        mode: provider?.name ?? ('manual' as const),
        coins: ctx.env.PAYOUT_CURRENCIES.flatMap((code) => {
          const coin = findPayoutCoin(code);
          return coin ? [{ code, label: coin.label, memoLabel: coin.memo?.label ?? null }] : [];
        }),
      }),
    );

    app.get(
      '/api/payouts/limits',
      {
        config: { access: 'user' },
        schema: { response: { 200: payoutLimitsSchema, ...errors } },
      },
      async (request) => {
        const user = requireUser(request);
        const limits = await payoutLimitsOf(ctx, ctx.db, user.id);
        return {
          available: centsToDollarNumber(limits.availableCents),
          withdrawable: centsToDollarNumber(limits.withdrawableCents),
          refundableToCard: centsToDollarNumber(limits.refundableToCardCents),
          cardClearingHours: ctx.env.CARD_CLEARING_HOURS,
        };
      },
    );

    app.post(
      '/api/payouts',
      {
        config: { access: 'user' },
        schema: {
          body: payoutRequestBodySchema,
          response: {
            201: payoutRequestResponseSchema,
            ...errors,
            429: errorBodySchema,
            503: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const check = await hitRateLimit(
          ctx.db,
          ctx.rateLimits.payoutRequestPerUser,
          String(user.id),
          ctx.clock(),
        );
        if (check.exceeded) {
          throw new AppError('RATE_LIMITED', PAYOUT_MESSAGES.tooMany, {
            retryAfter: check.retryAfterSeconds,
          });
        }
        const { amount, currency, address, extraId, ...details } = request.body;
        const { payout, balanceCents } = await requestPayout(ctx, sender, user.id, {
          amountCents: amount,
          ...details,
          destination:
            currency && address ? { currency, address, extraId: extraId || null } : undefined,
        });
        request.log.info({ userId: user.id, payoutId: payout.id }, 'payout requested');
        return reply
          .code(201)
          .send({ payout: toPayoutView(payout), balance: centsToDollarNumber(balanceCents) });
      },
    );

    app.get(
      '/api/admin/payouts',
      {
        config: { access: 'admin' },
        schema: {
          querystring: adminPayoutListQuerySchema,
          response: { 200: z.array(adminPayoutSchema), ...errors },
        },
      },
      async (request) =>
        (await listPayoutsWithOwners(ctx.db, request.query)).map((row) =>
          toAdminPayoutView(row.payout, row.username),
        ),
    );

    app.post(
      '/api/admin/payouts/:id/complete',
      {
        config: { access: 'admin' },
        schema: {
          params: payoutIdParamsSchema,
          body: completePayoutBodySchema,
          response: { 200: adminPayoutSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await decidePayout(ctx, request.params.id, {
          outcome: 'complete',
          adminId: admin.id,
          note: request.body?.note,
        });
        request.log.info({ adminId: admin.id, payoutId: request.params.id }, 'payout completed');
        return adminView(request.params.id);
      },
    );

    app.post(
      '/api/admin/payouts/:id/fail',
      {
        config: { access: 'admin' },
        schema: {
          params: payoutIdParamsSchema,
          body: failPayoutBodySchema,
          response: { 200: adminPayoutSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await decidePayout(ctx, request.params.id, {
          outcome: 'fail',
          adminId: admin.id,
          reason: request.body.reason,
        });
        request.log.info({ adminId: admin.id, payoutId: request.params.id }, 'payout failed');
        return adminView(request.params.id);
      },
    );

    app.post(
      '/api/admin/payouts/:id/approve',
      {
        config: { access: 'admin' },
        schema: { params: payoutIdParamsSchema, response: { 200: adminPayoutSchema, ...errors } },
      },
      async (request) => {
        const admin = requireUser(request);
        await approvePayout(ctx, sender, request.params.id, admin.id);
        request.log.info({ adminId: admin.id, payoutId: request.params.id }, 'payout approved');
        return adminView(request.params.id);
      },
    );

    app.get(
      '/api/admin/payouts/balances',
      {
        config: { access: 'admin' },
        schema: { response: { 200: payoutBalancesSchema, ...errors } },
      },
      async (request) => payoutBalancesOf(ctx, provider, request.log),
    );

    if (provider?.name === 'sandbox') {
      app.post(
        '/api/sandbox/payouts/:id/simulate',
        {
          config: { access: 'admin' },
          schema: {
            params: payoutIdParamsSchema,
            body: sandboxPayoutSimulateBodySchema,
            response: { 200: adminPayoutSchema, ...errors },
          },
        },
        async (request) => {
          await simulateSandboxPayout(ctx, request.params.id, request.body.status);
          return adminView(request.params.id);
        },
      );
    }

    if (provider?.name === 'nowpayments') {
      // Signatures are checked over the parsed body, so only here JSON arrives as raw bytes.
      await app.register(async (hooks) => {
        hooks.removeContentTypeParser('application/json');
        hooks.addContentTypeParser(
          'application/json',
          { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_BYTES_MAX },
          (_request, body, done) => done(null, body),
        );
        hooks.withTypeProvider<ZodTypeProvider>().post(
          '/api/webhooks/nowpayments/payouts',
          {
            config: { access: 'public' },
            schema: {
              body: z.instanceof(Buffer),
              headers: z.object({ 'x-nowpayments-sig': z.string().max(300).optional() }),
              response: {
                200: z.object({ received: z.literal(true) }),
                400: errorBodySchema,
                413: errorBodySchema,
                415: errorBodySchema,
                503: errorBodySchema,
              },
            },
          },
          async (request) => {
            await handlePayoutIpn(ctx, request.log, {
              rawBody: request.body,
              signature: request.headers['x-nowpayments-sig'],
            });
            return { received: true as const };
          },
        );
      });
    }
  };
