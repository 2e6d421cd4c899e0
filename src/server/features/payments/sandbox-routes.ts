import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  cryptoPaymentParamsSchema,
  sandboxCardConfirmBodySchema,
  sandboxCardConfirmResponseSchema,
  sandboxCryptoPaymentSchema,
  sandboxCryptoSimulateBodySchema,
  sandboxCryptoSimulateResponseSchema,
} from '#shared/contracts/payments.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import { requireUser } from '../../plugins/access.ts';
import {
  confirmSandboxCard,
  getSandboxCryptoPayment,
  simulateSandboxCrypto,
  type PaymentDeps,
} from './service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/**
 * The sandbox contract of docs/payments.md: what the TEST MODE card form and the local crypto
 * checkout page call in place of Stripe.js and a wallet. A route exists only while its sandbox is
 * the provider, so with real keys configured these paths answer 404.
 */
export const sandboxPaymentRoutes =
  (deps: PaymentDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { card, crypto } = deps.providers;

    if (card.name === 'sandbox-card') {
      app.post(
        '/api/sandbox/card/confirm',
        {
          config: { access: 'user' },
          schema: {
            body: sandboxCardConfirmBodySchema,
            response: { 200: sandboxCardConfirmResponseSchema, ...errors, 402: errorBodySchema },
          },
        },
        async (request) => {
          const user = requireUser(request);
          const { paymentIntentId } = await confirmSandboxCard(deps, {
            userId: user.id,
            clientSecret: request.body.clientSecret,
            cardNumber: request.body.cardNumber,
          });
          return { paymentIntentId, status: 'succeeded' as const };
        },
      );
    }

    if (crypto.name === 'sandbox-crypto') {
      app.get(
        '/api/sandbox/crypto/:paymentId',
        {
          config: { access: 'user' },
          schema: {
            params: cryptoPaymentParamsSchema,
            response: { 200: sandboxCryptoPaymentSchema, ...errors },
          },
        },
        async (request) => {
          const user = requireUser(request);
          const record = await getSandboxCryptoPayment(deps, {
            userId: user.id,
            paymentId: request.params.paymentId,
          });
          return {
            paymentId: record.id,
            priceAmount: centsToDollarNumber(record.priceAmountCents),
            paymentAmount: Number(record.payAmount),
            paymentCurrency: record.payCurrency,
            paymentAddress: record.payAddress,
            status: record.status,
            expirationTime: record.expiresAt?.toISOString() ?? null,
          };
        },
      );

      app.post(
        '/api/sandbox/crypto/:paymentId/simulate',
        {
          config: { access: 'user' },
          schema: {
            params: cryptoPaymentParamsSchema,
            body: sandboxCryptoSimulateBodySchema,
            response: { 200: sandboxCryptoSimulateResponseSchema, ...errors },
          },
        },
        async (request) => {
          const user = requireUser(request);
          const status = await simulateSandboxCrypto(deps, {
            userId: user.id,
            paymentId: request.params.paymentId,
            status: request.body.status,
          });
          return { status };
        },
      );
    }
  };
