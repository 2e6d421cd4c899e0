import type { Database, Transaction } from './client.ts';

/** A transaction plus work to run once it has committed (events, never database writes). */
export interface UnitOfWork {
  tx: Transaction;
  afterCommit(callback: () => Promise<void> | void): void;
}

// Deadlock and serialization failures are PostgreSQL telling us to try again: the transaction
// was rolled back whole, so repeating it is safe.
const RETRYABLE_CODES = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

function databaseErrorCode(error: unknown): string | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  return databaseErrorCode(error) === '23505';
}

export async function inTransaction<T>(
  db: Database,
  work: (uow: UnitOfWork) => Promise<T>,
  onCallbackError: (error: unknown) => void = () => {},
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const callbacks: Array<() => Promise<void> | void> = [];
    try {
      const result = await db.transaction((tx) =>
        work({ tx, afterCommit: (callback) => callbacks.push(callback) }),
      );
      // Started in order and awaited together: events a transaction publishes leave in one
      // message on a batching bus instead of one round trip each.
      const outcomes = await Promise.allSettled(callbacks.map(async (callback) => callback()));
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') onCallbackError(outcome.reason);
      }
      return result;
    } catch (error) {
      const code = databaseErrorCode(error);
      if (!code || !RETRYABLE_CODES.has(code) || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
