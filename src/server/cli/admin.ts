import { promoteUser } from '../features/users/admin-bootstrap.ts';
import { runCommand } from './run.ts';

const USAGE = 'Usage: npm run admin -- promote <username>\n';

await runCommand(async (_env, database) => {
  const [action, username] = process.argv.slice(2);
  if (action !== 'promote' || !username) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (!(await promoteUser(database.db, username))) {
    process.stderr.write(`No user named ${username}.\n`);
    return 1;
  }
  process.stdout.write(`${username} is now an admin.\n`);
  return 0;
});
