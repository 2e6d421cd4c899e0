/**
 * Accounts: registration, sign-in and sessions, devices, two-factor sign-in, passwords, e-mail,
 * the profile, the ID check, and an account's standing to play for money (suspension, breaks,
 * location). docs/accounts.md
 */
export { ensureAdmin, promoteUser } from './admin-bootstrap.ts';
export { authRoutes } from './auth-routes.ts';
export {
  clearAccountLink,
  deviceLinksOf,
  eraseDeviceSignIns,
  linkedAccountsOf,
  requireNotLinked,
  type DeviceLink,
} from './device-links.ts';
export { describeBrowser, listSessions } from './devices.ts';
export {
  decideVerification,
  findLatestVerification,
  findVerification,
  listVerifications,
  rejectPendingVerificationsOf,
  type VerificationWithContext,
} from './id-verification.ts';
export { requirePlayerLocation } from './location.ts';
export { pageViewer } from './page-user.ts';
export { hashPassword, verifyPassword } from './password.ts';
export { profileRoutes } from './profile-routes.ts';
export { loadPublicUser } from './public-user.ts';
export { findUserById, findUserByUsername, lockUser, suggestOpponents } from './repository.ts';
export { accountSecurityRoutes } from './security-routes.ts';
export { SessionCache } from './session-cache.ts';
export {
  SESSION_COOKIE,
  findSessionUser,
  revokeUserSessions,
  type SessionPolicy,
} from './sessions.ts';
export { isSecureRequest } from './sign-in.ts';
export {
  STANDING_COLUMNS,
  findChallengeableUser,
  isSuspended,
  liftMoneyLock,
  lockMoney,
  moneyLockOf,
  playBreakOf,
  readStanding,
  requireCashPlayAllowed,
  requireMoneyUnlocked,
  suspensionOf,
  type StandingColumns,
} from './standing.ts';
export { tooManyAttempts } from './throttle.ts';
export { twoFactorRoutes } from './two-factor-routes.ts';
export { eraseTwoFactor } from './two-factor.ts';
