import type { ChallengeFilters, ChallengeSort } from '#shared/contracts/challenges.ts';
import type { ChallengeStatus } from '../../db/schema/challenges.ts';
import { compress, type ContentEncoding } from '../../lib/content-encoding.ts';
import type { AppEvent } from '../../lib/event-bus.ts';
import type { ChallengeRow } from './repository.ts';
import { toOutsiderView } from './view.ts';

/**
 * How long a page may be served from memory. Every change to a challenge or a player drops the
 * pages at once, on every instance, through the bus; this bounds how long one could outlive an
 * event that was lost.
 */
export const CHALLENGE_PAGE_TTL_MS = 5_000;
/**
 * The first page of each tab is nearly all that is asked; deeper pages come and go. A page of 50
 * takes about 100 kB with its rows, JSON and gzip, so the cache stays near 10 MB.
 */
const CHALLENGE_PAGES_MAX = 100;

export interface PageQuery extends ChallengeFilters {
  status?: ChallengeStatus[] | undefined;
  limit: number;
  before?: number | undefined;
  sort?: ChallengeSort | undefined;
}

/**
 * A query's place in the cache. The lobby's filters are part of it (decision 17): a filtered
 * page is the same for every player, so it is cached as the unfiltered ones are, and dropped by
 * the same events. The game is compared whatever its case, as the query compares it.
 */
export function pageKey(query: PageQuery): string {
  return JSON.stringify([
    query.status?.toSorted().join(',') ?? '*',
    query.limit,
    query.before ?? '',
    query.sort ?? 'newest',
    query.game?.toLowerCase() ?? '',
    query.console ?? '',
    query.minAmount?.toString() ?? '',
    query.maxAmount?.toString() ?? '',
  ]);
}

/**
 * One page of a players' challenge list, ready to send: each challenge as a player who is not
 * one of its players sees it, already in JSON, and the whole page in JSON, compressed. Only the
 * challenges of the viewer are written again, per request, with their contact details.
 */
export class ChallengePage {
  readonly body: string;
  private readonly json: string[];
  private readonly players: Set<number>;
  private readonly compressed: Partial<Record<ContentEncoding, Buffer>> = {};

  constructor(readonly rows: ChallengeRow[]) {
    this.json = rows.map((row) => JSON.stringify(toOutsiderView(row)));
    this.body = `[${this.json.join(',')}]`;
    this.players = new Set(
      rows.flatMap(({ challenge }) =>
        challenge.acceptorId === null
          ? [challenge.creatorId]
          : [challenge.creatorId, challenge.acceptorId],
      ),
    );
  }

  /** Whether a viewer is a player of any challenge on the page, and so sees it differently. */
  involves(userId: number): boolean {
    return this.players.has(userId);
  }

  /** The page with the viewer's own challenges written by `view`, the others as cached. */
  bodyFor(userId: number, view: (row: ChallengeRow) => unknown): string {
    if (!this.involves(userId)) return this.body;
    const parts = this.rows.map((row, index) => {
      const { creatorId, acceptorId } = row.challenge;
      return creatorId === userId || acceptorId === userId
        ? JSON.stringify(view(row))
        : this.json[index];
    });
    return `[${parts.join(',')}]`;
  }

  /** The page for outsiders, compressed once in each encoding asked for, then sent as is. */
  encoded(encoding: ContentEncoding): Buffer {
    this.compressed[encoding] ??= compress(this.body, encoding);
    return this.compressed[encoding];
  }
}

interface Slot {
  storedAt: number;
  page: Promise<ChallengePage>;
  /** A page of the lobby's filters: these are many and each is rarely asked for again. */
  filtered: boolean;
}

const isFiltered = (query: PageQuery) =>
  query.game !== undefined ||
  query.console !== undefined ||
  query.minAmount !== undefined ||
  query.maxAmount !== undefined ||
  (query.sort ?? 'newest') !== 'newest';

/**
 * The pages of open (and other) challenges this instance built in the last seconds, by query.
 * Requests for a page that is being read wait for that read instead of starting their own, so a
 * burst of players opening the home page costs the database one query per page.
 */
export class ChallengePageCache {
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly load: (query: PageQuery) => Promise<ChallengeRow[]>,
    private readonly ttlMs: number = CHALLENGE_PAGE_TTL_MS,
    private readonly pagesMax: number = CHALLENGE_PAGES_MAX,
  ) {}

  get size(): number {
    return this.slots.size;
  }

  page(query: PageQuery, now: number): Promise<ChallengePage> {
    const key = pageKey(query);
    const slot = this.slots.get(key);
    if (slot && now - slot.storedAt < this.ttlMs) return slot.page;
    if (slot) this.slots.delete(key);
    if (this.slots.size >= this.pagesMax) this.evictOne();
    const page = this.load(query).then((rows) => new ChallengePage(rows));
    const fresh: Slot = { storedAt: now, page, filtered: isFiltered(query) };
    this.slots.set(key, fresh);
    // A failed read is not kept: the next request tries again.
    page.catch(() => {
      if (this.slots.get(key) === fresh) this.slots.delete(key);
    });
    return page;
  }

  clear(): void {
    this.slots.clear();
  }

  /**
   * Makes room: the oldest filtered page goes first, so that players trying many filters cannot
   * push out the unfiltered first pages nearly everyone asks for; the oldest page otherwise.
   */
  private evictOne(): void {
    let victim: string | undefined;
    for (const [key, slot] of this.slots) {
      victim ??= key;
      if (slot.filtered) {
        victim = key;
        break;
      }
    }
    if (victim !== undefined) this.slots.delete(victim);
  }

  /**
   * Any change to a challenge can move it onto, off or within a page, and deleting an account
   * renames its player: either empties the cache. Reads already under way finish for the
   * requests that wait on them, as a request that started just before the change would have.
   */
  handle(event: AppEvent): void {
    switch (event.type) {
      case 'challenge':
      case 'sessions-revoked':
      case 'user-changed':
      case 'events-missed':
        this.clear();
        break;
      default:
        break;
    }
  }
}
