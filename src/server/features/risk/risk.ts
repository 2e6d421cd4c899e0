import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import { describeBrowser, linkedAccountsOf } from '../accounts/index.ts';

/** The thresholds of the three signals (docs/operator-tools.md), from the RISK_* settings. */
export interface RiskSettings {
  windowDays: number;
  sharedAccountsMin: number;
  pairMatchesMin: number;
  pairWinPercent: number;
  withdrawnPercent: number;
  playPercent: number;
}

export function riskSettingsOf(env: Env): RiskSettings {
  return {
    windowDays: env.RISK_WINDOW_DAYS,
    sharedAccountsMin: env.RISK_SHARED_ACCOUNTS_MIN,
    pairMatchesMin: env.RISK_PAIR_MATCHES_MIN,
    pairWinPercent: env.RISK_PAIR_WIN_PERCENT,
    withdrawnPercent: env.RISK_WITHDRAWN_PERCENT,
    playPercent: env.RISK_PLAY_PERCENT,
  };
}

export interface RiskPlayerRow {
  id: number;
  username: string;
}

/** Accounts signed in with one device id in the window (docs/accounts.md#devices). */
export interface SharedDevice {
  /** A short, stable name for the device: the start of its hash, never the cookie. */
  device: string;
  /** The browsers its sign-ins named, as people read them: shown, never compared. */
  browsers: string[];
  players: RiskPlayerRow[];
}

/**
 * Accounts signed in from one address in the window: the weaker signal (a carrier's NAT, a campus,
 * a café), shown to the admin, never holding anything by itself.
 */
export interface SharedNetwork {
  address: string;
  players: RiskPlayerRow[];
}

export interface LopsidedPair {
  winner: RiskPlayerRow;
  loser: RiskPlayerRow;
  matches: number;
  winnerWins: number;
  amountMovedCents: bigint;
}

export interface UnplayedWithdrawal {
  player: RiskPlayerRow;
  depositedCents: bigint;
  withdrawnCents: bigint;
  stakedCents: bigint;
}

/** Each list shows at most this many rows, the strongest first. */
const ROWS_SHOWN = 100;

function windowStart(now: Date, settings: RiskSettings): string {
  return new Date(now.getTime() - settings.windowDays * 86_400_000).toISOString();
}

function players(ids: number[], names: string[]): RiskPlayerRow[] {
  return ids.map((id, index) => ({ id: Number(id), username: names[index] ?? '' }));
}

/** The characters of a device's hash that name it on the RISK tab. */
const DEVICE_NAME_LENGTH = 12;

/**
 * Devices signed in on by at least RISK_SHARED_ACCOUNTS_MIN accounts in the window, the most
 * accounts first. A group whose every pair an admin cleared is left out; a group with one pair
 * cleared still shows, since its other accounts are not cleared. With `playerId`, only the devices
 * that account signed in on.
 */
export async function findSharedDevices(
  db: Executor,
  settings: RiskSettings,
  now: Date,
  playerId?: number,
): Promise<SharedDevice[]> {
  const since = windowStart(now, settings);
  const rows = await queryRows<{
    device_hash: string;
    ids: number[];
    names: string[];
    agents: Array<string | null>;
  }>(
    db,
    sql`
      with seen as (
        -- An admin's own accounts are the operator's, not a player's: never listed.
        select device_hash, user_id, user_agent from device_sign_ins
          where last_signed_in_at >= ${since}::timestamptz
            and user_id not in (select id from users where is_admin)
            ${playerId === undefined ? sql`` : sql`and device_hash in (select device_hash from device_sign_ins where user_id = ${playerId} and last_signed_in_at >= ${since}::timestamptz)`}
      ),
      grouped as (
        select device_hash, array_agg(user_id order by user_id) as ids,
          array_agg(user_agent order by user_id) as agents
        from seen group by device_hash
        having count(*) >= ${settings.sharedAccountsMin}
      )
      select g.device_hash, g.ids, g.agents,
        array(select u.username from unnest(g.ids) with ordinality as i(id, n)
          join users u on u.id = i.id order by i.n) as names
      from grouped g
      where (select count(*) from cleared_account_links c
          where c.low_user_id = any (g.ids) and c.high_user_id = any (g.ids))
        < cardinality(g.ids) * (cardinality(g.ids) - 1) / 2
      order by cardinality(g.ids) desc, g.device_hash
      limit ${ROWS_SHOWN}`,
  );
  return rows.map((row) => ({
    device: row.device_hash.slice(0, DEVICE_NAME_LENGTH),
    browsers: [
      ...new Set(
        row.agents.flatMap((agent) => {
          const browser = describeBrowser(agent);
          return browser === null ? [] : [browser];
        }),
      ),
    ],
    players: players(row.ids, row.names),
  }));
}

/**
 * Addresses accounts last signed in from, on any device, in the window, by at least
 * RISK_SHARED_ACCOUNTS_MIN accounts: shown beside the devices, never a reason to hold or refuse
 * anything.
 */
export async function findSharedNetworks(
  db: Executor,
  settings: RiskSettings,
  now: Date,
): Promise<SharedNetwork[]> {
  const since = windowStart(now, settings);
  const rows = await queryRows<{ address: string; ids: number[]; names: string[] }>(
    db,
    sql`
      with seen as (
        select distinct ip_address as address, user_id from device_sign_ins
          where last_signed_in_at >= ${since}::timestamptz and ip_address is not null
            and user_id not in (select id from users where is_admin)
      ),
      grouped as (
        select address, array_agg(user_id order by user_id) as ids from seen
        group by address
        having count(*) >= ${settings.sharedAccountsMin}
        order by count(*) desc, address
        limit ${ROWS_SHOWN}
      )
      -- Names only for the addresses shown, each by its primary key.
      select g.address, g.ids,
        array(select u.username from unnest(g.ids) with ordinality as i(id, n)
          join users u on u.id = i.id order by i.n) as names
      from grouped g
      order by cardinality(g.ids) desc, g.address`,
  );
  return rows.map((row) => ({ address: row.address, players: players(row.ids, row.names) }));
}

/**
 * Pairs of players with many finished matches against each other in the window, one side
 * winning nearly all: money that moves one way between friends (chip dumping).
 */
export async function findLopsidedPairs(
  db: Executor,
  settings: RiskSettings,
  now: Date,
  playerId?: number,
): Promise<LopsidedPair[]> {
  const since = windowStart(now, settings);
  const rows = await queryRows<{
    low_id: number;
    high_id: number;
    matches: number;
    low_wins: number;
    high_wins: number;
    to_low: string;
    low_name: string;
    high_name: string;
  }>(
    db,
    sql`
      with pair as (
        select least(creator_id, acceptor_id) as low_id, greatest(creator_id, acceptor_id) as high_id,
          count(*)::int as matches,
          count(*) filter (where winner_id = least(creator_id, acceptor_id))::int as low_wins,
          count(*) filter (where winner_id = greatest(creator_id, acceptor_id))::int as high_wins,
          sum(case when winner_id = least(creator_id, acceptor_id) then amount_cents
                   when winner_id = greatest(creator_id, acceptor_id) then -amount_cents
                   else 0 end)::text as to_low
        from challenges
        where completed_at >= ${since}::timestamptz and status = 'completed'
          and acceptor_id is not null
          ${playerId === undefined ? sql`` : sql`and ${playerId} in (creator_id, acceptor_id)`}
        group by 1, 2
      )
      select pair.*, low.username as low_name, high.username as high_name
      from pair
      join users low on low.id = pair.low_id
      join users high on high.id = pair.high_id
      where pair.matches >= ${settings.pairMatchesMin}
        and greatest(pair.low_wins, pair.high_wins) * 100 >= ${settings.pairWinPercent} * pair.matches
      order by pair.matches desc, pair.low_id, pair.high_id
      limit ${ROWS_SHOWN}`,
  );
  return rows.map((row) => {
    const low = { id: Number(row.low_id), username: row.low_name };
    const high = { id: Number(row.high_id), username: row.high_name };
    const lowWon = row.low_wins >= row.high_wins;
    const toLow = BigInt(row.to_low);
    return {
      winner: lowWon ? low : high,
      loser: lowWon ? high : low,
      matches: Number(row.matches),
      winnerWins: Number(lowWon ? row.low_wins : row.high_wins),
      amountMovedCents: lowWon ? toLow : -toLow,
    };
  });
}

/**
 * Players who, in the window, had deposits credited and asked to withdraw most of them (payouts
 * not failed) while their stakes in accepted matches stayed a small part of those deposits: money
 * passed through the platform rather than played (docs/operator-tools.md).
 */
export async function findUnplayedWithdrawals(
  db: Executor,
  settings: RiskSettings,
  now: Date,
  playerId?: number,
): Promise<UnplayedWithdrawal[]> {
  const since = windowStart(now, settings);
  const rows = await queryRows<{
    user_id: number;
    username: string;
    deposited: string;
    withdrawn: string;
    staked: string;
  }>(
    db,
    sql`
      with deposited as (
        select user_id, sum(credited_amount_cents) as cents from payments
          where created_at >= ${since}::timestamptz and status = 'credited'
            ${playerId === undefined ? sql`` : sql`and user_id = ${playerId}`}
          group by user_id
      ),
      withdrawn as (
        select user_id, sum(amount_cents) as cents from payouts
          where created_at >= ${since}::timestamptz and status <> 'failed'
          group by user_id
      ),
      staked as (
        select user_id, sum(amount_cents) as cents from (
          select creator_id as user_id, amount_cents from challenges
            where accepted_at >= ${since}::timestamptz
          union all
          select acceptor_id, amount_cents from challenges
            where accepted_at >= ${since}::timestamptz
        ) stakes
        group by user_id
      )
      select u.id as user_id, u.username, d.cents::text as deposited, w.cents::text as withdrawn,
        coalesce(s.cents, 0)::text as staked
      from deposited d
      join withdrawn w on w.user_id = d.user_id
      left join staked s on s.user_id = d.user_id
      join users u on u.id = d.user_id
      where w.cents * 100 >= d.cents * ${settings.withdrawnPercent}
        and coalesce(s.cents, 0) * 100 < d.cents * ${settings.playPercent}
      order by w.cents desc, u.id
      limit ${ROWS_SHOWN}`,
  );
  return rows.map((row) => ({
    player: { id: Number(row.user_id), username: row.username },
    depositedCents: BigInt(row.deposited),
    withdrawnCents: BigInt(row.withdrawn),
    stakedCents: BigInt(row.staked),
  }));
}

/**
 * The words each signal names a player with, for the admin (docs/payouts.md: a payout that waits
 * says why). A player reads "a review by our team" instead (`isRiskFlag`). A shared network is not
 * among them: it holds nothing by itself.
 */
export const RISK_FLAGS = {
  sharedDevice: 'flagged: shared device',
  lopsidedPair: 'flagged: one-sided results',
  unplayedWithdrawal: 'flagged: withdrawing without play',
} as const;

const FLAG_WORDS = new Set<string>(Object.values(RISK_FLAGS));

/** Whether a payout's review reason is a risk signal's name, which its player never reads. */
export function isRiskFlag(reason: string): boolean {
  return FLAG_WORDS.has(reason);
}

/** The risk signals of the RISK tab that name this player now, in words; empty when none does. */
export async function riskFlagsOf(
  db: Executor,
  settings: RiskSettings,
  now: Date,
  playerId: number,
): Promise<string[]> {
  const flags: string[] = [];
  // Named by a listed device only with an account whose link to the player is not cleared.
  const devices = await findSharedDevices(db, settings, now, playerId);
  if (devices.length > 0) {
    const linked = new Set(await linkedAccountsOf(db, playerId, settings.windowDays, now));
    if (devices.some((device) => device.players.some((player) => linked.has(player.id)))) {
      flags.push(RISK_FLAGS.sharedDevice);
    }
  }
  if ((await findLopsidedPairs(db, settings, now, playerId)).length > 0) {
    flags.push(RISK_FLAGS.lopsidedPair);
  }
  if ((await findUnplayedWithdrawals(db, settings, now, playerId)).length > 0) {
    flags.push(RISK_FLAGS.unplayedWithdrawal);
  }
  return flags;
}
