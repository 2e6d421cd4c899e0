import type { FastifyBaseLogger } from 'fastify';
import {
  leaderboardQuerySchema,
  leaderboardSchema,
  playerParamsSchema,
  playerProfileSchema,
} from '#shared/contracts/players.ts';
import { tournamentListSchema } from '#shared/contracts/tournaments.ts';
import {
  leaderboardChoiceOf,
  leaderboardQueryKey,
  leaderboardQueryOf,
  playerQueryKey,
  tournamentListQueryKey,
  type PageQuery,
  type PageQueryName,
} from '#shared/page-data.ts';
import { pageAt, type PageName } from '#shared/pages.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema/users.ts';
import { leaderboard, playerProfile } from '../players/index.ts';
import { findControlCharacter } from '../../plugins/text-guard.ts';
import { listTournaments } from '../tournaments/index.ts';

/** The address a page is sent for, and who asked (as requireViewer sees them). */
export interface PageAddress {
  /** Without the query string. */
  path: string;
  /** The query string, without its `?` ('' when there is none). */
  search: string;
  viewer: User;
}

/**
 * One query whose answer a page carries: the route's answer schema, through which its JSON is
 * written as the route's serializer writes it, and the load, which calls the same function the
 * route does with what the client would send for this address. It gives undefined where the route
 * would not answer 200 (a 400, a 404): the client then asks and meets that answer itself.
 */
interface PageQueryLoader<T> {
  query: PageQueryName;
  schema: z.ZodType<T>;
  load(ctx: AppContext, at: PageAddress): Promise<{ key: readonly unknown[]; data: T } | undefined>;
}

function loader<T>(definition: PageQueryLoader<T>): PageQueryLoader<unknown> {
  return definition as PageQueryLoader<unknown>;
}

/**
 * What wouter makes of the path or the query string it gives the screen: it decodes escapes
 * (`%20`) with decodeURI, and leaves the text as it is when that fails.
 */
function asWouterDecodes(text: string): string {
  try {
    return text.includes('%') ? decodeURI(text) : text;
  } catch {
    return text;
  }
}

/**
 * The queries each screen draws its main content from, by page. Every route here is declared
 * `user`: a visitor signed out gets a 401 from each, so a page for nobody carries none of them.
 */
const PAGE_DATA: Partial<Record<PageName, Array<PageQueryLoader<unknown>>>> = {
  // GET /api/players/:username
  player: [
    loader({
      query: 'player',
      schema: playerProfileSchema,
      async load(ctx, { path }) {
        const username = /^\/players\/([^/]+)$/.exec(asWouterDecodes(path))?.[1];
        const params = playerParamsSchema.safeParse({ username });
        if (!username || !params.success) return undefined;
        const data = await playerProfile(ctx, params.data.username);
        return data ? { key: playerQueryKey(username), data } : undefined;
      },
    }),
  ],
  // GET /api/leaderboard?period=&game=
  leaderboard: [
    loader({
      query: 'leaderboard',
      schema: leaderboardSchema,
      async load(ctx, { search }) {
        const choice = leaderboardChoiceOf(asWouterDecodes(search));
        // Decoded twice, a query the text guard let through can carry a control character.
        if (findControlCharacter(choice.game) !== undefined) return undefined;
        const query = leaderboardQuerySchema.safeParse(leaderboardQueryOf(choice));
        if (!query.success) return undefined;
        return { key: leaderboardQueryKey(choice), data: await leaderboard(ctx, query.data) };
      },
    }),
  ],
  // GET /api/tournaments
  tournaments: [
    loader({
      query: 'tournaments',
      schema: tournamentListSchema,
      async load(ctx, { viewer }) {
        return { key: tournamentListQueryKey, data: await listTournaments(ctx.db, viewer.id) };
      },
    }),
  ],
};

/** How long a page waits for its data at most before it is sent without it. */
export const PAGE_DATA_WAIT_MS = 150;

/**
 * The answers the page at `at` carries, each as the API would answer its viewer. A load that
 * fails, or is not in within `waitMs`, is left out (and logged): the client asks for it then, as
 * it did before pages carried any. Never rejects.
 */
export async function pageData(
  ctx: AppContext,
  at: PageAddress,
  log: FastifyBaseLogger,
  waitMs = PAGE_DATA_WAIT_MS,
): Promise<PageQuery[]> {
  const loaders = PAGE_DATA[pageAt(at.path)];
  if (!loaders) return [];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), waitMs);
  });
  const answers = await Promise.all(
    loaders.map(async ({ query, schema, load }) => {
      const loading = load(ctx, at).then((answer) =>
        // As the route's serializer writes its answer: encoded through its schema.
        answer ? { query, key: answer.key, data: z.encode(schema, answer.data) } : undefined,
      );
      try {
        const answer = await Promise.race([loading, late]);
        if (answer !== 'late') return answer;
        // A rejection of the late load is not unhandled: the race above holds it.
        log.warn({ query, waitMs }, 'the data of a page was late: the page is sent without it');
      } catch (error) {
        log.error({ err: error, query }, 'could not load the data of a page');
      }
      return undefined;
    }),
  );
  clearTimeout(timer);
  return answers.filter((answer) => answer !== undefined);
}
