import type { AppEvent } from '../../lib/event-bus.ts';
import type { Executor } from '../../db/client.ts';
import { getUserBalances, type UserBalances } from './balances.ts';

/**
 * How long an instance shows a balance it read without reading it again. Every transfer tells
 * every instance which players' money it moved (the `balance` event, after its commit), and
 * their copies are dropped at once; this only bounds how long a copy could outlive an event that
 * was lost (an instance that crashed between its commit and its NOTIFY, a NOTIFY that failed, a
 * listening connection that was down: the last tells its instance, which empties the cache).
 */
export const BALANCE_CACHE_TTL_MS = 10_000;
/** One entry per signed-in player seen in the last seconds; the oldest are dropped first. */
const BALANCE_CACHE_ENTRIES_MAX = 50_000;

interface Entry {
  balances: UserBalances;
  storedAt: number;
}

/** A read under way: a change to its player while it runs makes what it read unfit to keep. */
interface Read {
  stale: boolean;
}

/**
 * The balances `GET /api/user` and the pages show, kept per instance (decision 22). Never used
 * to decide anything about money: staking, payouts and transfers lock and read the ledger
 * itself. A copy is forgotten when a transfer moves the player's money, on every instance, and a
 * read that a transfer overtook is not kept, so a balance cannot be cached from before a change
 * that was already announced.
 */
export class BalanceCache {
  private readonly entries = new Map<number, Entry>();
  private readonly reads = new Map<number, Set<Read>>();

  constructor(
    private readonly ttlMs: number = BALANCE_CACHE_TTL_MS,
    private readonly entriesMax: number = BALANCE_CACHE_ENTRIES_MAX,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The player's balances: the copy when there is a fresh one, or a read of the ledger. */
  async balancesOf(db: Executor, userId: number, now: number): Promise<UserBalances> {
    const entry = this.entries.get(userId);
    if (entry !== undefined) {
      if (now - entry.storedAt < this.ttlMs) return entry.balances;
      this.entries.delete(userId);
    }
    const read: Read = { stale: false };
    const reads = this.reads.get(userId) ?? new Set<Read>();
    reads.add(read);
    this.reads.set(userId, reads);
    try {
      const balances = await getUserBalances(db, userId);
      if (!read.stale) this.store(userId, balances, now);
      return balances;
    } finally {
      reads.delete(read);
      if (reads.size === 0 && this.reads.get(userId) === reads) this.reads.delete(userId);
    }
  }

  forget(userId: number): void {
    this.entries.delete(userId);
    for (const read of this.reads.get(userId) ?? []) read.stale = true;
  }

  clear(): void {
    this.entries.clear();
    for (const reads of this.reads.values()) for (const read of reads) read.stale = true;
  }

  /** Keeps the copies true to the transfers this instance and the others announce. */
  handle(event: AppEvent): void {
    if (event.type === 'balance') this.forget(event.userId);
    else if (event.type === 'events-missed') this.clear();
  }

  private store(userId: number, balances: UserBalances, now: number): void {
    this.entries.delete(userId);
    if (this.entries.size >= this.entriesMax) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(userId, { balances, storedAt: now });
  }
}
