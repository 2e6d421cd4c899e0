import type { User } from '../../db/schema/users.ts';
import type { AppEvent } from '../../lib/event-bus.ts';

/**
 * How long an instance trusts a session it read from the database without reading it again.
 * Ends and changes are pushed to every instance at once (the events below); this only bounds how
 * long a copy could outlive an event that was lost (an instance that crashed between its commit
 * and its NOTIFY).
 */
export const SESSION_CACHE_TTL_MS = 10_000;
/** Far more sessions than one instance serves in ten seconds; the oldest are dropped first. */
const SESSION_CACHE_ENTRIES_MAX = 50_000;

export interface CachedSession {
  user: User;
  /** Milliseconds since the epoch, as stored in the session row. */
  lastSeenAt: number;
  expiresAt: number;
}

interface Entry extends CachedSession {
  storedAt: number;
}

/**
 * The sessions this instance checked recently, by token hash, so that a signed-in request does
 * not cost a database round trip. The database stays the authority: a copy is forgotten on the
 * events that end a session or change its user, on every instance, and after a few seconds.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  // Bumped by every forget: a read from the database that started before one is not stored, so
  // a session ended while its lookup was in flight cannot be cached back to life.
  private generation = 0;

  constructor(
    private readonly ttlMs: number = SESSION_CACHE_TTL_MS,
    private readonly entriesMax: number = SESSION_CACHE_ENTRIES_MAX,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Taken before reading a session from the database, and handed back to `store`. */
  mark(): number {
    return this.generation;
  }

  get(tokenHash: string, now: number): CachedSession | undefined {
    const entry = this.entries.get(tokenHash);
    if (entry === undefined) return undefined;
    if (now - entry.storedAt >= this.ttlMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  store(tokenHash: string, session: CachedSession, mark: number, now: number): void {
    if (mark !== this.generation) return;
    this.entries.delete(tokenHash);
    if (this.entries.size >= this.entriesMax) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, { ...session, storedAt: now });
  }

  forgetToken(tokenHash: string): void {
    this.generation += 1;
    this.entries.delete(tokenHash);
  }

  forgetUser(userId: number): void {
    this.generation += 1;
    for (const [tokenHash, entry] of this.entries) {
      if (entry.user.id === userId) this.entries.delete(tokenHash);
    }
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** Keeps the copies true to what other instances (and this one) announce on the bus. */
  handle(event: AppEvent): void {
    switch (event.type) {
      case 'session-revoked':
        this.forgetToken(event.tokenHash);
        break;
      case 'sessions-revoked':
      case 'user-changed':
        this.forgetUser(event.userId);
        break;
      case 'events-missed':
        this.clear();
        break;
      default:
        break;
    }
  }
}
