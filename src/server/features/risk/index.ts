/**
 * The risk signals: shared devices and addresses, one-sided pairs, deposits withdrawn unplayed
 * (docs/operator-tools.md).
 */
export {
  findLopsidedPairs,
  findSharedDevices,
  findUnplayedWithdrawals,
  riskFlagsOf,
  riskSettingsOf,
} from './risk.ts';
