import { runCommand } from './run.ts';

// runCommand migrates before it runs anything: this command is just that step, once per deploy.
await runCommand(async (env, database) => {
  process.stdout.write(`Migrations applied (${database.kind}).\n`);
  return 0;
});
