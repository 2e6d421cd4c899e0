export {
  findLopsidedPairs,
  findSharedDevices,
  findUnplayedWithdrawals,
  riskFlagsOf,
  riskSettingsOf,
} from './risk.ts';
