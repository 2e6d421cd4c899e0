import { promoteUser } from '../features/accounts/index.ts';
import { createLocalBus, createPostgresBus } from '../lib/event-bus.ts';
import { runCommand } from './run.ts';

const USAGE = 'Usage: npm run admin -- promote <username>\n';

await runCommand(async (_env, database) => {
  const [action, username] = process.argv.slice(2);
  if (action !== 'promote' || !username) {
    process.stderr.write(USAGE);
    return 2;
  }
  // On PostgreSQL the running servers hear of the promotion; the embedded database cannot be
  // open in a server at the same time.
  const bus = database.pool
    ? await createPostgresBus(database.pool, { warn: () => {}, error: () => {} })
    : createLocalBus();
  try {
    if (!(await promoteUser(database.db, bus, username))) {
      process.stderr.write(`No user named ${username}.\n`);
      return 1;
    }
  } finally {
    await bus.close();
  }
  process.stdout.write(`${username} is now an admin.\n`);
  return 0;
});
