import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from './client.ts';
import { queryRows } from './client.ts';

/**
 * A state change and the writes that must happen with it, as one statement: the change (say,
 * `update challenges … where status = 'open' returning id`) tests and changes its row under
 * the row's lock, and the other writes run only if it changed something. One statement is
 * atomic without a transaction, and costs one round trip instead of BEGIN, a locking read,
 * the writes and COMMIT.
 */
export interface GuardedWrite {
  /** A data-modifying statement with RETURNING: a row back means it changed something. */
  change: SQLWrapper;
  /** Writes that belong to the change: each must read `CHANGED` and write nothing without it. */
  alongside?: SQL[];
}

/** The name under which the others read what `change` returned. */
export const CHANGED = sql.raw('changed');

/** The statement's common table expressions, for a caller to add its own and a final SELECT. */
export function guardedCtes(write: GuardedWrite): SQL {
  const alongside = (write.alongside ?? []).map(
    (statement, index) => sql`${sql.identifier(`alongside_${index + 1}`)} as (${statement})`,
  );
  // The builder's SQL, not the builder: embedded as it is, Drizzle would wrap it in a second pair
  // of parentheses, which a WITH clause does not accept.
  return sql.join([sql`${CHANGED} as (${write.change.getSQL()})`, ...alongside], sql`, `);
}

/** Runs the write; false when the change found nothing to change (and so nothing was written). */
export async function runGuardedWrite(db: Executor, write: GuardedWrite): Promise<boolean> {
  const [row] = await queryRows<{ changed: boolean }>(
    db,
    sql`with ${guardedCtes(write)} select exists (select 1 from ${CHANGED}) as changed`,
  );
  return row?.changed === true;
}
