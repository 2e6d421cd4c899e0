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

interface DatabaseErrorFields {
  code: string;
  constraint: string | undefined;
}

/** The database's own error under whatever the driver or the ORM wrapped it in, if any. */
function databaseError(error: unknown): DatabaseErrorFields | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
    }
  }
  return undefined;
}

/** The SQLSTATE of the database's own error under whatever wrapped it, if it is one. */
export function sqlState(error: unknown): string | undefined {
  return databaseError(error)?.code;
}

export function isUniqueViolation(error: unknown): boolean {
  return databaseError(error)?.code === '23505';
}

/** The CHECK constraint the failed statement broke, if that is why it failed. */
export function brokenCheck(error: unknown): string | undefined {
  const fields = databaseError(error);
  return fields?.code === '23514' ? fields.constraint : undefined;
}

/**
 * Runs `work` again, up to five times in all, when PostgreSQL rolled it back for a deadlock or a
 * serialization failure. `work` must be one transaction or one statement, so that nothing of a
 * failed attempt remains.
 */
export async function retryingConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const code = databaseError(error)?.code;
      if (!code || !RETRYABLE_CODES.has(code) || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

export async function inTransaction<T>(
  db: Database,
  work: (uow: UnitOfWork) => Promise<T>,
  onCallbackError: (error: unknown) => void = () => {},
): Promise<T> {
  return retryingConflicts(async () => {
    const callbacks: Array<() => Promise<void> | void> = [];
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
  });
}
