import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { rateLimitHits } from '../db/schema/rate-limits.ts';

export interface RateRule {
  /** Names the counter family, e.g. "login:user". */
  name: string;
  limit: number;
  windowMs: number;
}

export interface RateCheck {
  hits: number;
  exceeded: boolean;
  /** Whole seconds until the current window ends. */
  retryAfterSeconds: number;
}

function windowOf(rule: RateRule, now: Date): Date {
  return new Date(Math.floor(now.getTime() / rule.windowMs) * rule.windowMs);
}

/**
 * Counts one hit against `key` in the current fixed window, atomically, and says whether the
 * limit is now exceeded. The counter is a database row so every instance shares it.
 */
export async function hitRateLimit(
  db: Executor,
  rule: RateRule,
  key: string,
  now: Date,
): Promise<RateCheck> {
  const windowStart = windowOf(rule, now);
  const [row] = await db
    .insert(rateLimitHits)
    .values({ bucket: `${rule.name}:${key}`, windowStart, hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimitHits.bucket, rateLimitHits.windowStart],
      set: { hits: sql`${rateLimitHits.hits} + 1` },
    })
    .returning({ hits: rateLimitHits.hits });
  const hits = row?.hits ?? 1;
  const retryAfterSeconds = Math.max(
    1,
    Math.ceil((windowStart.getTime() + rule.windowMs - now.getTime()) / 1000),
  );
  return { hits, exceeded: hits > rule.limit, retryAfterSeconds };
}

export async function resetRateLimit(
  db: Executor,
  rule: RateRule,
  key: string,
  now: Date,
): Promise<void> {
  await db
    .delete(rateLimitHits)
    .where(
      and(
        eq(rateLimitHits.bucket, `${rule.name}:${key}`),
        eq(rateLimitHits.windowStart, windowOf(rule, now)),
      ),
    );
}

/** Deletes counters whose windows ended more than a day ago. */
export async function pruneRateLimits(db: Executor, now: Date): Promise<void> {
  await db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.windowStart, new Date(now.getTime() - 86_400_000)));
}
