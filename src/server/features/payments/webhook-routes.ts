import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { z } from '#shared/validation.ts';
import {
  handleNowPaymentsIpn,
  handleStripeWebhook,
  type DisputeRecorder,
  type PaymentDeps,
} from './service.ts';

const WEBHOOK_BODY_BYTES_MAX = 512 * 1024;

const rawBodySchema = z.instanceof(Buffer);
const receivedSchema = z.object({ received: z.literal(true) });
const responses = {
  200: receivedSchema,
  400: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  503: errorBodySchema,
};

/**
 * Provider callbacks. Signatures are checked over the body as sent, so inside this plugin (and
 * only here) JSON bodies are kept as raw bytes instead of being parsed. Each route exists only
 * when its real provider is configured: the sandboxes have no webhooks.
 */
export const paymentWebhookRoutes =
  (deps: PaymentDeps, disputes: DisputeRecorder): FastifyPluginAsyncZod =>
  async (app) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_BYTES_MAX },
      (_request, body, done) => done(null, body),
    );

    const { card, crypto } = deps.providers;
    if (card.name === 'stripe') {
      app.post(
        '/api/webhooks/stripe',
        {
          config: { access: 'public' },
          schema: {
            body: rawBodySchema,
            headers: z.object({ 'stripe-signature': z.string().max(2000).optional() }),
            response: responses,
          },
        },
        async (request) => {
          await handleStripeWebhook(deps, card, disputes, {
            rawBody: request.body,
            signature: request.headers['stripe-signature'],
          });
          return { received: true as const };
        },
      );
    }

    if (crypto.name === 'nowpayments') {
      app.post(
        '/api/webhooks/nowpayments',
        {
          config: { access: 'public' },
          schema: {
            body: rawBodySchema,
            headers: z.object({ 'x-nowpayments-sig': z.string().max(300).optional() }),
            response: responses,
          },
        },
        async (request) => {
          await handleNowPaymentsIpn(deps, {
            rawBody: request.body,
            signature: request.headers['x-nowpayments-sig'],
          });
          return { received: true as const };
        },
      );
    }
  };
