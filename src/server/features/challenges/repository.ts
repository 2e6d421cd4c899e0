import {
  and,
  asc,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PlayerRecord } from '#shared/contracts/challenge-view.ts';
import type { ChallengeFilters, ChallengeSort } from '#shared/contracts/challenges.ts';
import { formatCents } from '#shared/money.ts';
import { sqlArray, type Executor } from '../../db/client.ts';
import { challenges, type Challenge, type ChallengeStatus } from '../../db/schema/challenges.ts';
import { playerRecords } from '../../db/schema/player-records.ts';
import { users } from '../../db/schema/users.ts';
import { balanceCentsOf, POSTED_COLUMNS } from '../ledger/index.ts';
import type { Mail } from '../mail/index.ts';
import {
  tellingSteps,
  toldNews,
  type NewNotification,
  type StoredNews,
} from '../notifications/index.ts';

const creators = alias(users, 'creator');
const acceptors = alias(users, 'acceptor');
const creatorRecords = alias(playerRecords, 'creator_record');
const acceptorRecords = alias(playerRecords, 'acceptor_record');

/**
 * A player's record from its row, joined by primary key (`records.ts` says how it is kept). A
 * player whose challenges never counted has no row: every count is then 0, the empty record.
 */
function recordColumns(record: typeof creatorRecords | typeof acceptorRecords) {
  const count = (column: AnyPgColumn) => sql<number>`coalesce(${column}, 0)`.mapWith(Number);
  return {
    played: count(record.played),
    won: count(record.won),
    lost: count(record.lost),
    tiesLost: count(record.tiesLost),
    disputesOpened: count(record.disputesOpened),
    disputesLost: count(record.disputesLost),
    noShows: count(record.noShows),
    cancelled: count(record.cancelled),
  } satisfies Record<keyof PlayerRecord, SQL<number>>;
}

// Built once: every challenge list and view selects them.
const CREATOR_RECORD = recordColumns(creatorRecords);
const ACCEPTOR_RECORD = recordColumns(acceptorRecords);

interface PartyColumns {
  id: number;
  username: string;
  email: string | null;
  phoneNumber: string | null;
  /** Null when the query did not read wallets: only admins see balances. */
  balanceCents: bigint | null;
}

export interface Party extends PartyColumns {
  record: PlayerRecord;
}

export interface ChallengeRow {
  challenge: Challenge;
  creator: Party;
  acceptor: Party | null;
  /**
   * A direct challenge's invited player (docs/challenges.md#finding-an-opponent); null for a public
   * one.
   */
  opponentName: string | null;
}

/**
 * Challenges with both players and their records; with `withBalances`, also their wallet
 * balances, which only admins see (players' lists then skip the two wallet joins).
 */
function selectWithParties(db: Executor, withBalances = true) {
  const balance = (player: typeof creators | typeof acceptors) =>
    withBalances ? balanceCentsOf(player.id) : sql<bigint | null>`null`;
  const query = db
    .select({
      challenge: challenges,
      creator: {
        id: creators.id,
        username: creators.username,
        email: creators.email,
        phoneNumber: creators.phoneNumber,
        balanceCents: balance(creators),
      },
      acceptor: {
        id: acceptors.id,
        username: acceptors.username,
        email: acceptors.email,
        phoneNumber: acceptors.phoneNumber,
        balanceCents: balance(acceptors),
      },
      opponentName: sql<
        string | null
      >`(select o.username from users o where o.id = ${challenges.opponentId})`,
      creatorRecord: CREATOR_RECORD,
      acceptorRecord: ACCEPTOR_RECORD,
    })
    .from(challenges)
    .innerJoin(creators, eq(creators.id, challenges.creatorId))
    .leftJoin(acceptors, eq(acceptors.id, challenges.acceptorId))
    .leftJoin(creatorRecords, eq(creatorRecords.userId, challenges.creatorId))
    .leftJoin(acceptorRecords, eq(acceptorRecords.userId, challenges.acceptorId))
    .$dynamic();
  return query;
}

interface RowColumns {
  challenge: Challenge;
  creator: PartyColumns;
  acceptor: PartyColumns | null;
  opponentName: string | null;
  creatorRecord: PlayerRecord;
  acceptorRecord: PlayerRecord;
}

/** A row as the views take it: each player with their record. */
function toChallengeRow(row: RowColumns): ChallengeRow {
  return {
    challenge: row.challenge,
    creator: { ...row.creator, record: row.creatorRecord },
    acceptor:
      row.challenge.acceptorId && row.acceptor
        ? { ...row.acceptor, record: row.acceptorRecord }
        : null,
    opponentName: row.opponentName,
  };
}

export async function findChallengeRow(
  db: Executor,
  id: number,
): Promise<ChallengeRow | undefined> {
  const [row] = await selectWithParties(db).where(eq(challenges.id, id)).limit(1);
  return row && toChallengeRow(row);
}

/** Locks the challenge row until the transaction ends: the one gate every state change passes. */
export async function lockChallenge(db: Executor, id: number): Promise<Challenge | undefined> {
  const [row] = await db
    .select()
    .from(challenges)
    .where(eq(challenges.id, id))
    .limit(1)
    .for('update');
  return row;
}

export interface Contact {
  id: number;
  username: string;
  email: string | null;
}

/** The challenge and its players' names and addresses, read without a lock. */
export async function findChallengeWithPlayers(
  db: Executor,
  id: number,
): Promise<{ challenge: Challenge; creator: Contact; acceptor: Contact | null } | undefined> {
  const [row] = await db
    .select({
      challenge: challenges,
      creator: { id: creators.id, username: creators.username, email: creators.email },
      acceptor: { id: acceptors.id, username: acceptors.username, email: acceptors.email },
    })
    .from(challenges)
    .innerJoin(creators, eq(creators.id, challenges.creatorId))
    .leftJoin(acceptors, eq(acceptors.id, challenges.acceptorId))
    .where(eq(challenges.id, id))
    .limit(1);
  return row;
}

export async function findChallenge(db: Executor, id: number): Promise<Challenge | undefined> {
  const [row] = await db.select().from(challenges).where(eq(challenges.id, id)).limit(1);
  return row;
}

/**
 * What the challenge functions of migration 0009 answer beside the posting: whether the call
 * changed the challenge, and the challenge as it is now. A call that found no challenge answers
 * no row.
 */
export interface ChallengeOutcome {
  changed: boolean;
  challenge_id: number;
  challenge_status: ChallengeStatus;
  creator_id: number;
  /** The notifications the call stored, to push once it has committed. */
  news: StoredNews[];
}

const CALL_COLUMNS = sql`changed, challenge_id, challenge_status, creator_id, ${POSTED_COLUMNS},
  ${toldNews}`;

/**
 * The columns of `challenge_call_result` (migration 0009), what the challenge functions answer,
 * taken from `row`. Named rather than `row.*`, so that a call can be prepared (decision 22).
 */
const resultOf = (row: string) =>
  sql.raw(
    [
      'changed',
      'challenge_id',
      'challenge_status',
      'creator_id',
      'transfer_id',
      'account_key',
      'account_user_id',
      'balance_cents',
    ]
      .map((column) => `${row}.${column}`)
      .join(', '),
  );
const CREATED = resultOf('c');
const QUICK_MATCHED = resultOf('q');
const ACCEPTED = resultOf('a');
const REPORTED = resultOf('r');

export interface NewChallenge {
  creatorId: number;
  stakeCents: bigint;
  game: string;
  gamerTag: string;
  phoneNumber: string;
  console: string;
  mode: string | null;
  platform: string | null;
  /** The only player who may accept it (a direct challenge); null for a public one. */
  opponentId: number | null;
  now: Date;
}

/**
 * A player's suspension, break and money lock as they were read and judged, which a write relies
 * on.
 */
export interface SeenStanding {
  suspendedAt: Date | null;
  suspendedUntil: Date | null;
  playBreakUntil: Date | null;
  moneyLockedAt: Date | null;
}

/** A notification written by a challenge call's own statement: SQL over the `call` rows. */
interface CallNews {
  recipient: SQL;
  kind: string;
  title: SQL;
  body: SQL;
  dedupeKey: SQL;
  /** Which rows of `call` it is written for. */
  when: SQL;
}

/** The notification of a call, and its mail, written by the call's statement (`tellingSteps`). */
function toldInCall(news: CallNews): SQL {
  return tellingSteps(
    sql`select distinct ${news.recipient}, ${news.kind}::text, call.challenge_id, ${news.title},
        ${news.body}, ${news.dedupeKey}
      from call where ${news.when}`,
    true,
  );
}

/** The creator's news of an acceptance, keyed so that it is written once per challenge. */
export function acceptedNews(challengeId: SQL): { title: SQL; body: SQL; dedupeKey: SQL } {
  return {
    title: sql`'Challenge #' || ${challengeId} || ' was accepted'`,
    body: sql`'Your challenge #' || ${challengeId} || ' was accepted. Get ready to compete!'`,
    dedupeKey: sql`'challenge-accepted:' || ${challengeId}`,
  };
}

/**
 * The player's row (id and username) if their suspension, break and money lock are still as
 * `seen`, locked `for share`; no row otherwise, and the call built on it does nothing. A
 * suspension, a break or a money lock withdraws its player's open challenges in its own
 * transaction, holding their row (`for update`, a lock `for no key update`): this lock waits for
 * it and then finds the row changed, or holds it off until the call has committed, where the
 * sweep then finds what the call made.
 */
function playerAsSeen(userId: number, seen: SeenStanding): SQL {
  return sql`select u.id, u.username from users u
      where u.id = ${userId}::integer
        and u.suspended_at is not distinct from ${seen.suspendedAt?.toISOString() ?? null}::timestamptz
        and u.suspended_until is not distinct from ${seen.suspendedUntil?.toISOString() ?? null}::timestamptz
        and u.play_break_until is not distinct from ${seen.playBreakUntil?.toISOString() ?? null}::timestamptz
        and u.money_locked_at is not distinct from ${seen.moneyLockedAt?.toISOString() ?? null}::timestamptz
      for share`;
}

/**
 * Inserts an open challenge and posts the creator's stake into its escrow, provided the
 * creator's suspension and break are still as `seen`; otherwise it answers no row and creates
 * nothing.
 */
export function createChallengeCall(challenge: NewChallenge, seen: SeenStanding): SQL {
  const id = sql`call.challenge_id`;
  const stake = formatCents(challenge.stakeCents);
  return sql`with creator as materialized (${playerAsSeen(challenge.creatorId, seen)}),
    call as materialized (
      select ${CREATED}, creator.username as creator_name from creator, lateral challenge_create(
        creator.id, ${challenge.stakeCents.toString()}::bigint, ${challenge.game}::text,
        ${challenge.gamerTag}::text, ${challenge.phoneNumber}::text, ${challenge.console}::text,
        ${challenge.mode}::text, ${challenge.platform}::text, ${challenge.opponentId}::integer,
        ${challenge.now.toISOString()}::timestamptz) c
    ),
    ${toldInCall({
      recipient: sql`${challenge.opponentId}::integer`,
      kind: 'direct_challenge',
      title: sql`call.creator_name || ' challenges you: #' || ${id}`,
      body: sql`call.creator_name || ' challenges you to ' || ${challenge.game}::text || ' on ' ||
        ${challenge.console}::text || ' for ' || ${stake}::text ||
        ' each. Accept or decline it on challenge #' || ${id} || '.'`,
      dedupeKey: sql`'direct-challenge:' || ${id}`,
      when: sql`${challenge.opponentId}::integer is not null`,
    })}
    select ${CALL_COLUMNS} from call`;
}

export interface QuickMatchTerms {
  playerId: number;
  /** Accounts linked to the player by a device: their challenges are passed over. */
  passedOver: number[];
  stakeCents: bigint;
  game: string;
  gamerTag: string;
  phoneNumber: string;
  console: string;
  now: Date;
}

/**
 * Quick match in one call (`challenge_quick_match`, ledger/sql): accepts the oldest open public
 * challenge of another player not linked to them on the same terms, with its creator's notification and
 * mail, or opens one; guarded by the player's standing as a creation is.
 */
export function quickMatchCall(terms: QuickMatchTerms, seen: SeenStanding): SQL {
  return sql`with player as materialized (${playerAsSeen(terms.playerId, seen)}),
    call as materialized (
      select ${QUICK_MATCHED} from player, lateral challenge_quick_match(player.id,
        ${terms.stakeCents.toString()}::bigint, ${terms.game}::text, ${terms.gamerTag}::text,
        ${terms.phoneNumber}::text, ${terms.console}::text,
        ${terms.now.toISOString()}::timestamptz, ${sqlArray(terms.passedOver, 'integer')}) q
    ),
    ${toldInCall({
      recipient: sql`call.creator_id`,
      kind: 'challenge_accepted',
      ...acceptedNews(sql`call.challenge_id`),
      when: sql`call.changed and call.challenge_status = 'accepted'`,
    })}
    select ${CALL_COLUMNS} from call`;
}

/**
 * Accepts an open challenge of another player and posts the acceptor's stake, matching the
 * creator's, into its escrow. Refused (unchanged) when it is not open, is the acceptor's own, or
 * is a direct challenge to someone else.
 */
export function acceptChallengeCall(challengeId: number, acceptorId: number, now: Date): SQL {
  return sql`with call as materialized (
      select ${ACCEPTED} from challenge_accept(${challengeId}::integer, ${acceptorId}::integer,
        ${now.toISOString()}::timestamptz) a
    ),
    ${toldInCall({
      recipient: sql`call.creator_id`,
      kind: 'challenge_accepted',
      ...acceptedNews(sql`call.challenge_id`),
      when: sql`call.changed`,
    })}
    select ${CALL_COLUMNS} from call`;
}

export interface ResultRecord {
  challengeId: number;
  status: 'completed' | 'disputed';
  winnerId: number;
  creatorScore: number;
  acceptorScore: number;
  screenshotUrl: string;
  notes: string | null;
  disputeReason: string | null;
  submittedBy: number;
  prizeCents: bigint;
  feeCents: bigint;
  now: Date;
  /** Until when the winner's credit waits for the opponent (completed results). */
  reviewEndsAt: Date;
}

/**
 * Records a result on an accepted challenge with its mail; a completed one also moves the prize out
 * of the escrow: the winner's credit into review, the fee to the house (docs/fair-play.md). Refused
 * (unchanged) when the challenge is no longer accepted. `news` is written by this statement's
 * `told` step rather than by the function (which gets none), so that the statement answers what it
 * stored; without mail, as `mails` already says it.
 */
export function recordResultCall(
  result: ResultRecord,
  mails: Mail[],
  news: Array<Omit<NewNotification, 'challengeId'>>,
): SQL {
  return sql`with call as materialized (
      select ${REPORTED} from challenge_report_result(${result.challengeId}::integer,
        ${result.status}::text, ${result.winnerId}::integer, ${result.creatorScore}::integer,
        ${result.acceptorScore}::integer, ${result.screenshotUrl}::text, ${result.notes}::text,
        ${result.disputeReason}::text, ${result.submittedBy}::integer,
        ${result.prizeCents.toString()}::bigint, ${result.feeCents.toString()}::bigint,
        ${result.now.toISOString()}::timestamptz, ${result.reviewEndsAt.toISOString()}::timestamptz,
        ${JSON.stringify(
          mails.map((mail) => ({
            dedupe_key: mail.dedupeKey,
            recipient: mail.recipient,
            subject: mail.subject,
            body: mail.body,
            metadata: mail.metadata ?? null,
          })),
        )}::jsonb, '[]'::jsonb) r
    ),
    ${tellingSteps(
      sql`select n.user_id, n.kind, ${result.challengeId}::integer, n.title, n.body, n.dedupe_key
        from jsonb_to_recordset(${JSON.stringify(
          news.map((item) => ({
            user_id: item.userId,
            kind: item.kind,
            title: item.title,
            body: item.body,
            dedupe_key: item.dedupeKey,
          })),
        )}::jsonb) as n(user_id integer, kind text, title text, body text, dedupe_key text)
        where exists (select from call where call.changed)`,
      false,
    )}
    select ${CALL_COLUMNS} from call`;
}

export interface ListFilter extends ChallengeFilters {
  viewerId: number;
  status?: ChallengeStatus[] | undefined;
  role?: 'created' | 'accepted' | 'mine' | 'direct' | undefined;
  /** Every challenge, direct ones of other players too (admins' view). */
  everyone?: boolean | undefined;
  limit: number;
  /** The last challenge of the previous page: the page starts after it, in `sort`'s order. */
  before?: number | undefined;
  sort?: ChallengeSort | undefined;
  /** Read the players' wallet balances too (admins' view). */
  withBalances: boolean;
}

/** `LIKE` reads `%`, `_` and `\` in a pattern as wildcards or escapes: a name may contain them. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * The conditions of the lobby's filters (docs/challenges.md#finding-an-opponent), for the lists and
 * for their counts.
 */
function filterConditions(filter: ChallengeFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filter.game !== undefined) {
    conditions.push(ilike(challenges.game, `%${likeLiteral(filter.game)}%`));
  }
  if (filter.console !== undefined) conditions.push(eq(challenges.console, filter.console));
  if (filter.minAmount !== undefined)
    conditions.push(gte(challenges.amountCents, filter.minAmount));
  if (filter.maxAmount !== undefined)
    conditions.push(lte(challenges.amountCents, filter.maxAmount));
  return conditions;
}

/**
 * Where the page after challenge `before` starts, in the list's order. By amount, the order is
 * (amount, id), both ascending or both descending, so that one index serves both directions;
 * the cursor's amount is read from its row (a challenge's amount never changes).
 */
function afterCursor(before: number, sort: ChallengeSort): SQL {
  if (sort === 'newest') return lt(challenges.id, before);
  const cursorAmount = sql`(select c.amount_cents from challenges c where c.id = ${before})`;
  return sort === 'amount_desc'
    ? sql`(${challenges.amountCents}, ${challenges.id}) < (${cursorAmount}, ${before})`
    : sql`(${challenges.amountCents}, ${challenges.id}) > (${cursorAmount}, ${before})`;
}

const ORDER_BY: Record<ChallengeSort, SQL[]> = {
  newest: [desc(challenges.id)],
  amount_desc: [desc(challenges.amountCents), desc(challenges.id)],
  amount_asc: [asc(challenges.amountCents), asc(challenges.id)],
};

export async function listChallengeRows(db: Executor, filter: ListFilter): Promise<ChallengeRow[]> {
  const sort = filter.sort ?? 'newest';
  const conditions: SQL[] = filterConditions(filter);
  if (filter.status) conditions.push(inArray(challenges.status, filter.status));
  if (filter.role === 'created') conditions.push(eq(challenges.creatorId, filter.viewerId));
  if (filter.role === 'accepted') conditions.push(eq(challenges.acceptorId, filter.viewerId));
  if (filter.role === 'mine') {
    const either = or(
      eq(challenges.creatorId, filter.viewerId),
      eq(challenges.acceptorId, filter.viewerId),
      eq(challenges.opponentId, filter.viewerId),
    );
    if (either) conditions.push(either);
  }
  if (filter.role === 'direct') {
    const sentOrReceived = or(
      eq(challenges.opponentId, filter.viewerId),
      and(isNotNull(challenges.opponentId), eq(challenges.creatorId, filter.viewerId)),
    );
    if (sentOrReceived) conditions.push(sentOrReceived);
  }
  // A direct challenge is seen by its two players only (docs/challenges.md#finding-an-opponent).
  if (filter.role === undefined && !filter.everyone) conditions.push(isNull(challenges.opponentId));
  if (filter.before !== undefined) conditions.push(afterCursor(filter.before, sort));
  const rows = await selectWithParties(db, filter.withBalances)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(...ORDER_BY[sort])
    .limit(filter.limit);
  return rows.map(toChallengeRow);
}

/**
 * The numbers on the home tabs and the profile's My Challenges card, for one viewer; with the
 * lobby's filters, the numbers of what the filtered tabs show.
 */
export async function countChallenges(
  db: Executor,
  viewerId: number,
  filters: ChallengeFilters = {},
) {
  const [row] = await db
    .select({
      available: sql<number>`count(*) filter (where ${challenges.status} = 'open' and ${challenges.opponentId} is null)::int`,
      active: sql<number>`count(*) filter (where ${challenges.status} = 'accepted' and (${challenges.creatorId} = ${viewerId} or ${challenges.acceptorId} = ${viewerId}))::int`,
      completed: sql<number>`count(*) filter (where ${challenges.status} in ('completed', 'disputed') and (${challenges.creatorId} = ${viewerId} or ${challenges.acceptorId} = ${viewerId}))::int`,
      created: sql<number>`count(*) filter (where ${challenges.creatorId} = ${viewerId})::int`,
      accepted: sql<number>`count(*) filter (where ${challenges.acceptorId} = ${viewerId})::int`,
    })
    .from(challenges)
    .where(
      and(
        or(
          inArray(challenges.status, ['open']),
          eq(challenges.creatorId, viewerId),
          eq(challenges.acceptorId, viewerId),
        ),
        ...filterConditions(filters),
      ),
    );
  return row ?? { available: 0, active: 0, completed: 0, created: 0, accepted: 0 };
}

/**
 * The challenges a deletion must settle, locked in id order: the user's open challenges and the
 * accepted ones they play in. `for update` re-checks the condition after waiting for a lock, so a
 * challenge that changed state meanwhile is left out.
 */
export async function lockActiveChallengesOf(db: Executor, userId: number): Promise<Challenge[]> {
  return db
    .select()
    .from(challenges)
    .where(
      or(
        and(eq(challenges.creatorId, userId), eq(challenges.status, 'open')),
        and(
          or(eq(challenges.creatorId, userId), eq(challenges.acceptorId, userId)),
          eq(challenges.status, 'accepted'),
        ),
      ),
    )
    .orderBy(asc(challenges.id))
    .for('update');
}

/** A player's open challenges, locked in id order, for a suspension to withdraw. */
export async function lockOpenChallengesOf(db: Executor, userId: number): Promise<Challenge[]> {
  return db
    .select()
    .from(challenges)
    .where(and(eq(challenges.creatorId, userId), eq(challenges.status, 'open')))
    .orderBy(asc(challenges.id))
    .for('update');
}
