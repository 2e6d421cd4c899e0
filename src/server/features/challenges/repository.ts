import { and, desc, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { challenges, type Challenge, type ChallengeStatus } from '../../db/schema/challenges.ts';
import { ledgerAccounts } from '../../db/schema/ledger.ts';
import { users } from '../../db/schema/users.ts';

const creators = alias(users, 'creator');
const acceptors = alias(users, 'acceptor');
const creatorWallets = alias(ledgerAccounts, 'creator_wallet');
const acceptorWallets = alias(ledgerAccounts, 'acceptor_wallet');

export interface Party {
  id: number;
  username: string;
  email: string | null;
  phoneNumber: string | null;
  balanceCents: bigint;
}

export interface ChallengeRow {
  challenge: Challenge;
  creator: Party;
  acceptor: Party | null;
}

const toCents = (value: unknown) => BigInt(String(value));

function selectWithParties(db: Executor) {
  return db
    .select({
      challenge: challenges,
      creator: {
        id: creators.id,
        username: creators.username,
        email: creators.email,
        phoneNumber: creators.phoneNumber,
        balanceCents: sql<bigint>`coalesce(${creatorWallets.balanceCents}, 0)`.mapWith(toCents),
      },
      acceptor: {
        id: acceptors.id,
        username: acceptors.username,
        email: acceptors.email,
        phoneNumber: acceptors.phoneNumber,
        balanceCents: sql<bigint>`coalesce(${acceptorWallets.balanceCents}, 0)`.mapWith(toCents),
      },
    })
    .from(challenges)
    .innerJoin(creators, eq(creators.id, challenges.creatorId))
    .leftJoin(
      creatorWallets,
      and(eq(creatorWallets.userId, creators.id), eq(creatorWallets.kind, 'user')),
    )
    .leftJoin(acceptors, eq(acceptors.id, challenges.acceptorId))
    .leftJoin(
      acceptorWallets,
      and(eq(acceptorWallets.userId, acceptors.id), eq(acceptorWallets.kind, 'user')),
    );
}

function toRow(row: {
  challenge: Challenge;
  creator: Party;
  acceptor: Party | null;
}): ChallengeRow {
  return {
    challenge: row.challenge,
    creator: row.creator,
    acceptor: row.challenge.acceptorId ? row.acceptor : null,
  };
}

export async function findChallengeRow(
  db: Executor,
  id: number,
): Promise<ChallengeRow | undefined> {
  const [row] = await selectWithParties(db).where(eq(challenges.id, id)).limit(1);
  return row ? toRow(row) : undefined;
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

export interface ListFilter {
  viewerId: number;
  status?: ChallengeStatus[] | undefined;
  role?: 'created' | 'accepted' | 'mine' | undefined;
  limit: number;
  before?: number | undefined;
}

export async function listChallengeRows(db: Executor, filter: ListFilter): Promise<ChallengeRow[]> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(inArray(challenges.status, filter.status));
  if (filter.role === 'created') conditions.push(eq(challenges.creatorId, filter.viewerId));
  if (filter.role === 'accepted') conditions.push(eq(challenges.acceptorId, filter.viewerId));
  if (filter.role === 'mine') {
    const either = or(
      eq(challenges.creatorId, filter.viewerId),
      eq(challenges.acceptorId, filter.viewerId),
    );
    if (either) conditions.push(either);
  }
  if (filter.before !== undefined) conditions.push(lt(challenges.id, filter.before));
  const rows = await selectWithParties(db)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(challenges.id))
    .limit(filter.limit);
  return rows.map(toRow);
}

/** The numbers on the home tabs and the profile's My Challenges card, for one viewer. */
export async function countChallenges(db: Executor, viewerId: number) {
  const [row] = await db
    .select({
      available: sql<number>`count(*) filter (where ${challenges.status} = 'open')::int`,
      active: sql<number>`count(*) filter (where ${challenges.status} = 'accepted' and (${challenges.creatorId} = ${viewerId} or ${challenges.acceptorId} = ${viewerId}))::int`,
      completed: sql<number>`count(*) filter (where ${challenges.status} in ('completed', 'disputed') and (${challenges.creatorId} = ${viewerId} or ${challenges.acceptorId} = ${viewerId}))::int`,
      created: sql<number>`count(*) filter (where ${challenges.creatorId} = ${viewerId})::int`,
      accepted: sql<number>`count(*) filter (where ${challenges.acceptorId} = ${viewerId})::int`,
    })
    .from(challenges)
    .where(
      or(
        inArray(challenges.status, ['open']),
        eq(challenges.creatorId, viewerId),
        eq(challenges.acceptorId, viewerId),
      ),
    );
  return row ?? { available: 0, active: 0, completed: 0, created: 0, accepted: 0 };
}
