import { inArray } from 'drizzle-orm';
import type { PlayerRecord } from '#shared/contracts/challenge-view.ts';
import type { Executor } from '../../db/client.ts';
import { playerRecords } from '../../db/schema/player-records.ts';

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

/**
 * Each player's record (docs/fair-play.md) for a set of players, read by primary key from
 * `player_records`, which the challenges' trigger keeps as their challenges change (migration
 * 0024 says what each challenge counts). A player whose challenges never counted has no row:
 * callers show them `EMPTY_RECORD`.
 */
export async function findPlayerRecords(
  db: Executor,
  playerIds: readonly number[],
): Promise<Map<number, PlayerRecord>> {
  const records = new Map<number, PlayerRecord>();
  if (playerIds.length === 0) return records;
  const rows = await db
    .select()
    .from(playerRecords)
    .where(inArray(playerRecords.userId, [...new Set(playerIds)]));
  for (const { userId, ...record } of rows) records.set(userId, record);
  return records;
}
