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
