/**
 * The risk signals: shared devices (and, shown only, shared networks), one-sided pairs, deposits withdrawn unplayed
 * (docs/operator-tools.md).
 */
export {
  findLopsidedPairs,
  findSharedDevices,
  findSharedNetworks,
  findUnplayedWithdrawals,
  isRiskFlag,
  riskFlagsOf,
  riskSettingsOf,
} from './risk.ts';
