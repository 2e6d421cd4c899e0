import { sql } from 'drizzle-orm';
import type { PlayerRecord } from '#shared/contracts/challenge-view.ts';
import { queryRows, sqlArray, type Executor } from '../../db/client.ts';

/** The record of a player with no challenges yet. */
export const EMPTY_RECORD: PlayerRecord = {
  played: 0,
  won: 0,
  lost: 0,
  tiesLost: 0,
  disputesOpened: 0,
  disputesLost: 0,
  noShows: 0,
  cancelled: 0,
};

interface RecordRow {
  player_id: number;
  played: number;
  won: number;
  lost: number;
  ties_lost: number;
  disputes_opened: number;
  disputes_lost: number;
  no_shows: number;
  cancelled: number;
}

/**
 * Each player's record (DESIGN §10), derived from the challenges they played, for a set of
 * players in one statement: their challenges found through the creator and acceptor indexes,
 * counted by player.
 *
 * - played: a result that stands (`completed`: reported and not contested, or decided); won and
 *   lost split it; tiesLost are those lost on level scores.
 * - disputesOpened: who brought a challenge before the admins. A no-show claim is its
 *   claimant's. A result reported as completed and contested afterwards (it has a review, or
 *   from before reviews, a settlement `settle:{id}`) is the other player's; a report that came
 *   with its own dispute reason is its reporter's; an accepted match disputed because an
 *   account was deleted is nobody's.
 * - disputesLost: disputes someone opened that an admin decided for the player's opponent,
 *   whichever side the player was on, except a no-show claim against them, which is a no-show.
 * - noShows: no-show claims against the player that an admin decided for the claimant.
 * - cancelled: accepted matches that ended without a result (a creator's withdrawn open
 *   challenge was never a match).
 */
export async function findPlayerRecords(
  db: Executor,
  playerIds: readonly number[],
): Promise<Map<number, PlayerRecord>> {
  const records = new Map<number, PlayerRecord>();
  if (playerIds.length === 0) return records;
  const ids = sqlArray([...new Set(playerIds)], 'integer');
  const rows = await queryRows<RecordRow>(
    db,
    sql`with played as (
        select c.creator_id as player_id, c.* from challenges c where c.creator_id = any(${ids})
        union all
        select c.acceptor_id as player_id, c.* from challenges c where c.acceptor_id = any(${ids})
      ),
      judged as (
        select p.player_id, p.status, p.winner_id, p.acceptor_id, p.no_show_claimed_by,
          p.creator_score = p.acceptor_score as level,
          p.status = 'completed' and p.release_cause = 'decided' as decided,
          case
            when p.no_show_claimed_by is not null then p.no_show_claimed_by
            when p.dispute_reason is null then null
            when p.review_ends_at is not null or exists (
                select 1 from ledger_transfers t where t.idempotency_key = 'settle:' || p.id)
              then case p.submitted_by
                when p.creator_id then p.acceptor_id
                when p.acceptor_id then p.creator_id
              end
            else p.submitted_by
          end as disputer
        from played p
      )
      select player_id,
        count(*) filter (where status = 'completed')::int as played,
        count(*) filter (where status = 'completed' and winner_id = player_id)::int as won,
        count(*) filter (where status = 'completed' and winner_id <> player_id)::int as lost,
        count(*) filter (
          where status = 'completed' and winner_id <> player_id and level)::int as ties_lost,
        count(*) filter (where disputer = player_id)::int as disputes_opened,
        count(*) filter (
          where decided and winner_id <> player_id and disputer is not null
            and (no_show_claimed_by is null or no_show_claimed_by = player_id))::int
          as disputes_lost,
        count(*) filter (
          where decided and no_show_claimed_by <> player_id
            and winner_id = no_show_claimed_by)::int as no_shows,
        count(*) filter (where status = 'cancelled' and acceptor_id is not null)::int
          as cancelled
      from judged
      group by player_id`,
  );
  for (const row of rows) {
    records.set(Number(row.player_id), {
      played: Number(row.played),
      won: Number(row.won),
      lost: Number(row.lost),
      tiesLost: Number(row.ties_lost),
      disputesOpened: Number(row.disputes_opened),
      disputesLost: Number(row.disputes_lost),
      noShows: Number(row.no_shows),
      cancelled: Number(row.cancelled),
    });
  }
  return records;
}
