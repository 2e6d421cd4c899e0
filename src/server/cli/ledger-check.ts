import { checkLedgerInvariants } from '../features/ledger/index.ts';
import { runCommand } from './run.ts';

await runCommand(async (_env, database) => {
  const report = await checkLedgerInvariants(database.db);
  if (report.ok) {
    process.stdout.write(
      'Ledger OK: every transfer balances, cached balances match, no wallet is negative.\n',
    );
    return 0;
  }
  process.stderr.write(
    `Ledger check FAILED:\n${report.problems.map((p) => `  - ${p}`).join('\n')}\n`,
  );
  return 1;
});
