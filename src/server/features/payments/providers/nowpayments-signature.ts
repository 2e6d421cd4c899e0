import { createHmac, timingSafeEqual } from 'node:crypto';

/** A copy of a parsed JSON value whose object keys are sorted, at every depth. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      sorted[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
    }
    return sorted;
  }
  return value;
}

/**
 * NOWPayments signs an IPN with HMAC-SHA512, keyed by the IPN secret, over the JSON of the body
 * with its keys sorted (not over the bytes sent), and puts the hex digest in `x-nowpayments-sig`.
 */
export function signNowPaymentsBody(body: unknown, secret: string): string {
  return createHmac('sha512', secret)
    .update(JSON.stringify(sortKeysDeep(body)))
    .digest('hex');
}

/** Whether `signature` is NOWPayments' signature of `body`, compared in constant time. */
export function verifyNowPaymentsSignature(
  body: unknown,
  signature: string | undefined,
  secret: string,
): boolean {
  if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  const expected = Buffer.from(signNowPaymentsBody(body, secret), 'hex');
  const received = Buffer.from(signature, 'hex');
  return received.length === expected.length && timingSafeEqual(received, expected);
}
