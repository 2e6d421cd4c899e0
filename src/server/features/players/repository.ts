import { sql } from 'drizzle-orm';
import {
  GAME_SUGGESTIONS_MAX,
  LEADERBOARD_SIZE,
  PLAYER_GAMES_MAX,
  PLAYER_RESULTS_MAX,
  type LeaderboardPeriodValue,
} from '#shared/contracts/players.ts';
import { queryRows, type Executor } from '../../db/client.ts';
import { ALL_TIME_START } from '../../db/schema/leaderboards.ts';

/** A game's key in `games` and `leaderboard_entries`: its name trimmed, in lower case. */
export const gameKey = (name: string) => name.trim().toLowerCase();

export interface PlayerGame {
  game: string;
  played: number;
  wins: number;
}

/**
 * The games a player played most, all time, from their own leaderboard rows (kept on every
 * settlement), with the name the latest challenge gave each game.
 */
export async function findPlayerGames(db: Executor, userId: number): Promise<PlayerGame[]> {
  const rows = await queryRows<{ game: string; played: number; wins: number }>(
    db,
    sql`select coalesce(g.name, e.game_key) as game, e.played, e.wins
      from leaderboard_entries e left join games g on g.key = e.game_key
      where e.user_id = ${userId} and e.period = 'all' and e.game_key <> '' and e.played > 0
      order by e.played desc, e.wins desc, e.game_key
      limit ${PLAYER_GAMES_MAX}`,
  );
  return rows.map((row) => ({
    game: row.game,
    played: Number(row.played),
    wins: Number(row.wins),
  }));
}

export interface PlayerResultRow {
  challengeId: number;
  game: string;
  console: string;
  amountCents: bigint;
  won: boolean;
  score: number;
  opponentScore: number;
  opponent: string | null;
  completedAt: Date;
}

/**
 * A player's last results: their completed challenges, newest first, read from the two partial
 * indexes of completed challenges by creator and by acceptor (20 rows from each at most).
 */
export async function findPlayerResults(db: Executor, userId: number): Promise<PlayerResultRow[]> {
  const rows = await queryRows<{
    id: number;
    game: string;
    console: string;
    amount_cents: string;
    won: boolean;
    score: number;
    opponent_score: number;
    opponent: string | null;
    completed_at: string | Date;
  }>(
    db,
    sql`with mine as (
        (select c.id, c.game, c.console, c.amount_cents, c.winner_id, c.completed_at,
            c.creator_score as score, c.acceptor_score as opponent_score, c.acceptor_id as opponent_id
          from challenges c
          where c.creator_id = ${userId} and c.status = 'completed'
          order by c.completed_at desc limit ${PLAYER_RESULTS_MAX})
        union all
        (select c.id, c.game, c.console, c.amount_cents, c.winner_id, c.completed_at,
            c.acceptor_score, c.creator_score, c.creator_id
          from challenges c
          where c.acceptor_id = ${userId} and c.status = 'completed'
          order by c.completed_at desc limit ${PLAYER_RESULTS_MAX})
      )
      select m.id, m.game, m.console, m.amount_cents::text as amount_cents,
        m.winner_id = ${userId} as won, m.score, m.opponent_score,
        case when u.deleted_at is null then u.username end as opponent, m.completed_at
      from mine m join users u on u.id = m.opponent_id
      order by m.completed_at desc, m.id desc
      limit ${PLAYER_RESULTS_MAX}`,
  );
  return rows.map((row) => ({
    challengeId: Number(row.id),
    game: row.game,
    console: row.console,
    amountCents: BigInt(row.amount_cents),
    won: row.won,
    score: Number(row.score),
    opponentScore: Number(row.opponent_score),
    opponent: row.opponent,
    completedAt: new Date(row.completed_at),
  }));
}

/** The first day of the period that contains `now`, in UTC: a Monday, the 1st, or the epoch. */
export function periodStart(period: LeaderboardPeriodValue, now: Date): string {
  if (period === 'all') return ALL_TIME_START;
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (period === 'month') day.setUTCDate(1);
  else day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

export interface LeaderboardEntryRow {
  username: string;
  played: number;
  wins: number;
  netCents: bigint;
}

/**
 * The top of one leaderboard, by net winnings or by wins, read down its index: the players of
 * closed accounts are left out, those whose results were all taken back (played 0) too.
 */
export async function listLeaderboard(
  db: Executor,
  board: { period: LeaderboardPeriodValue; start: string; gameKey: string },
  by: 'net' | 'wins',
): Promise<LeaderboardEntryRow[]> {
  const order =
    by === 'net'
      ? sql`e.net_cents desc, e.wins desc, e.user_id`
      : sql`e.wins desc, e.net_cents desc, e.user_id`;
  const rows = await queryRows<{
    username: string;
    played: number;
    wins: number;
    net_cents: string;
  }>(
    db,
    sql`select u.username, e.played, e.wins, e.net_cents::text as net_cents
      from leaderboard_entries e join users u on u.id = e.user_id
      where e.period = ${board.period} and e.period_start = ${board.start}::date
        and e.game_key = ${board.gameKey} and e.played > 0 and u.deleted_at is null
      order by ${order}
      limit ${LEADERBOARD_SIZE}`,
  );
  return rows.map((row) => ({
    username: row.username,
    played: Number(row.played),
    wins: Number(row.wins),
    netCents: BigInt(row.net_cents),
  }));
}

/** The name players give a game, by its key; undefined for a game nobody named. */
export async function findGameName(db: Executor, key: string): Promise<string | undefined> {
  const [row] = await queryRows<{ name: string }>(
    db,
    sql`select name from games where key = ${key}`,
  );
  return row?.name;
}

/** The games named on challenges whose name contains `search`, most named first. */
export async function suggestGames(
  db: Executor,
  search: string | undefined,
): Promise<Array<{ name: string; challenges: number }>> {
  const contains = search ? sql`where strpos(key, ${gameKey(search)}) > 0` : sql``;
  const rows = await queryRows<{ name: string; challenges: number }>(
    db,
    sql`select name, challenges from games ${contains}
      order by challenges desc, key desc
      limit ${GAME_SUGGESTIONS_MAX}`,
  );
  return rows.map((row) => ({ name: row.name, challenges: Number(row.challenges) }));
}
