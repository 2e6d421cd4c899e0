import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { EVIDENCE_MESSAGES, type Evidence } from '#shared/contracts/challenges.ts';
import { TOURNAMENT_MESSAGES } from '#shared/contracts/tournaments.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import {
  tournamentMatchEvidence,
  tournamentMatches,
  type TournamentMatch,
} from '../../db/schema/tournaments.ts';
import { uploads } from '../../db/schema/uploads.ts';
import { type User, users } from '../../db/schema/users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { receiveEvidence, toEvidence } from '../challenges/index.ts';
import type { FileStore, MatchFileReaders } from '../uploads/index.ts';
import { findTournamentMatch, lockTournament } from './service.ts';

/** The match, 404 when it is not this tournament's, 403 for anyone but its players (and admins). */
async function visibleMatch(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  viewer: Pick<User, 'id' | 'isAdmin'>,
): Promise<TournamentMatch> {
  const [match] = await ctx.db
    .select()
    .from(tournamentMatches)
    .where(
      and(eq(tournamentMatches.id, matchId), eq(tournamentMatches.tournamentId, tournamentId)),
    );
  if (!match) throw new AppError('NOT_FOUND', TOURNAMENT_MESSAGES.matchNotFound);
  if (!viewer.isAdmin && viewer.id !== match.playerAId && viewer.id !== match.playerBId)
    throw new AppError('NOT_PARTICIPANT', TOURNAMENT_MESSAGES.notPlayer);
  return match;
}

/**
 * A player of a disputed match adds evidence, exactly as on a challenge (docs/fair-play.md,
 * decision 0020): a statement and/or an image or video, checked by the challenge's own reader.
 */
export async function addMatchEvidence(
  ctx: AppContext,
  store: FileStore,
  request: FastifyRequest,
  ids: { tournamentId: number; matchId: number },
  viewer: User,
): Promise<Evidence> {
  const match = await visibleMatch(ctx, ids.tournamentId, ids.matchId, {
    ...viewer,
    isAdmin: false,
  });
  if (match.status !== 'disputed') throw new AppError('CONFLICT', EVIDENCE_MESSAGES.notDisputed);
  const { statement, upload } = await receiveEvidence(ctx, store, request, viewer.id);
  // Under the tournament's lock, as every change to its matches: evidence answers a no-show
  // claim, so it must not land on a match the time limit has just decided (decision 0020).
  const row = await inTransaction(ctx.db, async ({ tx }) => {
    await lockTournament(tx, ids.tournamentId);
    const current = await findTournamentMatch(tx, match.id);
    if (current?.status !== 'disputed')
      throw new AppError('CONFLICT', EVIDENCE_MESSAGES.notDisputed);
    const [inserted] = await tx
      .insert(tournamentMatchEvidence)
      .values({ matchId: match.id, userId: viewer.id, statement, uploadId: upload?.id ?? null })
      .returning();
    if (!inserted) throw new Error('insert returned no evidence');
    return inserted;
  });
  return toEvidence(row, viewer.username, upload);
}

/** Both sides' evidence on a match, oldest first: for its two players and the admins. */
export async function listMatchEvidence(
  ctx: AppContext,
  ids: { tournamentId: number; matchId: number },
  viewer: User,
): Promise<Evidence[]> {
  const match = await visibleMatch(ctx, ids.tournamentId, ids.matchId, viewer);
  return (await evidenceOfMatches(ctx.db, [match.id])).get(match.id) ?? [];
}

/** The evidence on each of these matches, oldest first, by match. */
export async function evidenceOfMatches(
  db: Executor,
  matchIds: readonly number[],
): Promise<Map<number, Evidence[]>> {
  const byMatch = new Map<number, Evidence[]>();
  if (matchIds.length === 0) return byMatch;
  const rows = await db
    .select({ evidence: tournamentMatchEvidence, username: users.username, upload: uploads })
    .from(tournamentMatchEvidence)
    .innerJoin(users, eq(users.id, tournamentMatchEvidence.userId))
    .leftJoin(uploads, eq(uploads.id, tournamentMatchEvidence.uploadId))
    .where(inArray(tournamentMatchEvidence.matchId, [...matchIds]))
    .orderBy(asc(tournamentMatchEvidence.id));
  for (const row of rows) {
    const list = byMatch.get(row.evidence.matchId) ?? [];
    list.push(toEvidence(row.evidence, row.username, row.upload));
    byMatch.set(row.evidence.matchId, list);
  }
  return byMatch;
}

/**
 * Who may read an evidence file added to a tournament match: the match's two players, as both
 * players of a challenge read its dispute's (decision 0020). Undefined for a file that is no
 * match's evidence.
 */
export const matchFileReaders: MatchFileReaders = async (ctx, upload, viewer) => {
  if (upload.challengeId !== null || upload.purpose !== 'evidence') return undefined;
  const [row] = await ctx.db
    .select({ a: tournamentMatches.playerAId, b: tournamentMatches.playerBId })
    .from(tournamentMatchEvidence)
    .innerJoin(tournamentMatches, eq(tournamentMatches.id, tournamentMatchEvidence.matchId))
    .where(eq(tournamentMatchEvidence.uploadId, upload.id))
    .limit(1);
  return row ? viewer.id === row.a || viewer.id === row.b : false;
};
