/**
 * Challenges, from creation to settlement (docs/challenges.md, docs/fair-play.md).
 *
 * Where is a winner paid? A report (`results.ts`, through `challenge_report_result` in
 * ledger/sql) moves the prize less the fee from the escrow to `review:challenge:{id}`; the
 * credit reaches the winner's wallet in `review.ts` (`releaseLocked`) when the opponent confirms,
 * when the review ends (the fair-play worker), or by an admin's decision of a dispute
 * (`decisions.ts`, `resolveDispute`).
 */
export { resolveDispute } from './decisions.ts';
export { challengeFileReaders, receiveEvidence, toEvidence } from './evidence.ts';
export {
  answerToReport,
  mayStillDispute,
  noShowAllowedAt,
  reportedScoresReason,
} from './match-rules.ts';
export { EMPTY_RECORD, findPlayerRecords } from './records.ts';
export {
  findChallenge,
  findChallengeRow,
  listChallengeRows,
  lockActiveChallengesOf,
  lockOpenChallengesOf,
  type ChallengeRow,
} from './repository.ts';
export { payeeAccount, withdrawOpenLocked } from './review.ts';
export { challengeRoutes } from './routes.ts';
export { winnerOf } from './settlement.ts';
export { toChallengeView } from './view.ts';
export { FAIR_PLAY_INTERVAL_MS, startFairPlayWorker } from './worker.ts';
