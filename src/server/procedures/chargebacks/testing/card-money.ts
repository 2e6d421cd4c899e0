import { expect } from 'vitest';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import type { Agent } from '#tests/helpers/test-app.ts';

/** A sandbox card deposit, paid: answers its PaymentIntent id. */
export async function depositByCard(agent: Agent, amount: string): Promise<string> {
  const intent = await agent.post('/api/create-payment-intent', { amount });
  expect(intent.statusCode).toBe(200);
  const { clientSecret } = intent.json<{ clientSecret: string }>();
  const paid = await agent.post('/api/sandbox/card/confirm', {
    clientSecret,
    cardNumber: SANDBOX_TEST_CARDS.success,
  });
  expect(paid.statusCode).toBe(200);
  return paid.json<{ paymentIntentId: string }>().paymentIntentId;
}

/** The sandbox's dispute of a card payment, opened by an admin: answers the dispute's id. */
export async function disputeInSandbox(admin: Agent, paymentIntentId: string): Promise<string> {
  const response = await admin.post('/api/sandbox/card/disputes', { paymentIntentId });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string }>().id;
}
